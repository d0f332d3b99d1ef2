import { render } from 'preact';
import { OptionsApp } from '../../components/options/OptionsApp';
import { startPageLocale } from '../../components/common/locale';
import '../../components/options/options.css';

void startPageLocale().then(() => render(<OptionsApp />, document.getElementById('app')!));
