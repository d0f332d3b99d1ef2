// The calls an extension page sends from its first, classic script and takes in its modules.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { sendEarlyCall, takeEarlyCall } from '../../../entrypoints/shared/early-call';

const g = globalThis as unknown as Record<string, unknown>;
const original = { chrome: g.chrome, browser: g.browser };

// The test setup provides a fake `browser` and `chrome`; each test puts its own in their place.
beforeEach(() => {
  g.chrome = undefined;
  g.browser = undefined;
});
afterEach(() => {
  g.chrome = original.chrome;
  g.browser = original.browser;
  delete g.__recipeLensEarlyCalls;
});

describe('early calls', () => {
  it('sends the call in our envelope at once and hands its answer over once', async () => {
    const sent: unknown[] = [];
    g.chrome = { runtime: { sendMessage: async (m: unknown) => (sent.push(m), { ok: true, data: { claims: [], models: [] } }) } };
    sendEarlyCall('survey.head', { models: 12 });
    expect(sent).toEqual([{ channel: 'recipe-lens', type: 'survey.head', payload: { models: 12 } }]);
    await expect(takeEarlyCall('survey.head')).resolves.toEqual({ claims: [], models: [] });
    expect(takeEarlyCall('survey.head')).toBeUndefined();
  });

  it('prefers Firefox’s `browser` and passes the background’s error on to whoever takes the answer', async () => {
    g.chrome = { runtime: { sendMessage: async () => ({ ok: true, data: 'from chrome' }) } };
    g.browser = { runtime: { sendMessage: async () => ({ ok: false, error: 'The database could not be opened.' }) } };
    sendEarlyCall('survey.head', { models: 12 });
    await expect(takeEarlyCall('survey.head')).rejects.toThrow('The database could not be opened.');
  });

  it('sends nothing where there is no extension runtime, so the page asks for itself', () => {
    sendEarlyCall('survey.head', { models: 12 });
    expect(takeEarlyCall('survey.head')).toBeUndefined();
  });
});
