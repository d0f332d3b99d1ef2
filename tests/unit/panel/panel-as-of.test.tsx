// The evidence panel's "not disclosed" days follow the spec's rule: a source a recheck found unchanged counts with
// the day it was checked. The first rows (`survey.head`) bring their sources' records, every row (`survey.data`) all
// of them, and the panel derives its rows with them.
import { render } from 'preact';
import { afterEach, describe, expect, it } from 'vitest';
import { PanelApp } from '../../../components/panel/PanelApp';
import type { PanelApi } from '../../../components/panel/api';
import type { PageSends } from '../../../lib/messages';
import { putClaims, putSourceRecords, surveyHead } from '../../../lib/db';
import { type SourceRecord } from '../../../lib/schema';
import { freshDatabases } from '../../support/databases';
import { fakeCall } from '../../support/fake-call';
import { claim, model, sourceRecord } from '../fixtures/records';

const fresh = freshDatabases('panel-as-of');

const ZETA = claim().source.url;
const OTHER = 'https://example.org/omega';

/** A source record of the tests' defaults. */
const record = sourceRecord;

// An undisclosed finding about agentic RL, read on 2026-11-29: the stage is not disclosed as of that day, or later.
const undisclosed = claim({ id: 'clm_undisc_001', kind: 'undisclosed', stage: 'agentic_rl', value: 'Agentic RL' });
const grpo = claim({ id: 'clm_grpo_00001' });
const omega = claim({ id: 'clm_omega_0001', model: 'Omega-1', source: { ...claim().source, url: OTHER } });

describe('the first rows', () => {
  it("bring the source records of their claims' pages, and none of other rows", async () => {
    const db = await fresh();
    await putClaims(db, [grpo, undisclosed, omega]);
    await putSourceRecords(db, [record(ZETA), record(OTHER)]);
    const head = await surveyHead(db, 1);
    expect(head.claims.map((c) => c.model)).toEqual(['Omega-1']);
    expect(head.sources).toEqual([record(OTHER)]);
    expect((await surveyHead(db, 5)).sources).toEqual([record(OTHER), record(ZETA)]);
  });

  it('bring none when no source was rechecked', async () => {
    const db = await fresh();
    await putClaims(db, [grpo]);
    expect((await surveyHead(db, 5)).sources).toEqual([]);
  });
});

describe("the panel's not-disclosed days", () => {
  let host: HTMLElement;
  afterEach(() => {
    render(null, host);
    host.remove();
  });

  async function until(check: () => boolean): Promise<void> {
    for (let i = 0; i < 400 && !check(); i++) await new Promise((r) => setTimeout(r, 5));
    expect(check()).toBe(true);
  }

  /** Mounts the panel over these records and opens the Zeta-2 model view; returns the agentic RL stage's text. */
  async function agenticStage(sources: SourceRecord[] | undefined): Promise<string> {
    const data = { claims: [grpo, undisclosed], models: [model()], sources };
    const json = JSON.stringify(data);
    const api: PanelApi = {
      call: fakeCall<PageSends>({
        'survey.data': async () => ({ json, read: null, total: json.length }),
        'survey.head': async () => data,
        'claims.save': async ({ claims }) => ({ claims }),
        'claims.delete': async () => ({ deleted: [] }),
        'claims.restore': async ({ claims }) => ({ claims }),
        'model.save': async ({ record }) => ({ record }),
        'claims.reveal': async () => ({ how: 'tab' }),
        'tab.page': async () => ({ tabId: 1, report: null, reason: 'Not a web page.' }),
        'source.correct': async () => ({ updated: 0 }),
        'tab.passage': async () => ({ done: true }),
      }),
      windowId: 1,
      reader: () => async () => {
        throw new Error('no source is read in this test');
      },
      onChange: () => () => undefined,
      onActiveTabChange: () => () => undefined,
    };
    host = document.createElement('div');
    document.body.append(host);
    render(<PanelApp api={api} now={() => new Date('2026-12-06T10:00:00Z')} />, host);
    await until(() => !!host.querySelector('[data-testid=open-model]'));
    host.querySelector<HTMLElement>('[data-testid=open-model]')!.click();
    await until(() => !!host.querySelector('[data-testid=stage-agentic_rl]'));
    return host.querySelector('[data-testid=stage-agentic_rl]')!.textContent ?? '';
  }

  it('moves to the day a recheck found the source unchanged', async () => {
    expect(await agenticStage([record(ZETA)])).toContain('last checked 2026-12-04');
  });

  it('stays at the day the source was read when it was found changed, could not be read, or never rechecked', async () => {
    expect(await agenticStage([record(ZETA, { status: 'changed' })])).toContain('last checked 2026-11-29');
    render(null, host);
    host.remove();
    expect(await agenticStage([record(ZETA, { status: 'unreachable', checked: '2026-11-20' })])).toContain('last checked 2026-11-29');
    render(null, host);
    host.remove();
    expect(await agenticStage(undefined)).toContain('last checked 2026-11-29');
  });
});
