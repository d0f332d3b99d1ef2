import { render } from 'preact';
import { OptionsApp } from '../../components/options/OptionsApp';
import { startPageLocale } from '../shared/locale';
import { createOptionsApi } from './api';
import '../../components/options/options.css';
import '../../components/recheck/recheck.css';

void startPageLocale().then(() => render(<OptionsApp api={createOptionsApi()} />, document.getElementById('app')!));
