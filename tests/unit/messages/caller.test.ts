// The callers made from the protocol: a `call` function types each call's request and answer, each role's caller
// takes only the calls that role may send, and a caller of more calls stands in for a caller of fewer (a component
// asks for the calls it makes and is kept to them). The type checks are the type checker's (`@ts-expect-error`); the fake is the tests' own.
import { describe, expect, expectTypeOf, it } from 'vitest';
import type { Caller, DocumentCaller, DocumentSends, PageCaller, PageSends, ResponseOf, ViewerCaller, ViewerSends } from '../../../lib/messages';
import { fakeCall } from '../../support/fake-call';

describe('callers made from the protocol', () => {
  it('type the request and the answer of each call, and a fake answers by call name', async () => {
    const call = fakeCall<'store.summary' | 'models.names'>({ 'models.names': () => ({ names: ['Zeta-2'] }) });
    const answer = await call('models.names', {});
    expectTypeOf(answer).toEqualTypeOf<ResponseOf<'models.names'>>();
    expect(answer).toEqual({ names: ['Zeta-2'] });
    expect(call).toHaveBeenCalledWith('models.names', {});
    await expect(call('store.summary', {})).rejects.toThrow('does not answer "store.summary"');
  });

  it('keep each role to the calls it may send', () => {
    const page: PageCaller = fakeCall<PageSends>({});
    const document: DocumentCaller = fakeCall<DocumentSends>({});
    const viewer: ViewerCaller = fakeCall<ViewerSends>({});
    // Never run: these lines are for the type checker.
    const unsent = () => {
      // @ts-expect-error a document's call is not an extension page's
      void page('document.claims', { url: 'https://example.org/' });
      // @ts-expect-error an extension page's call is not a document's
      void document('store.summary', {});
      // @ts-expect-error the background's calls to a tab are not sent to the background
      void viewer('form.open', {});
      // @ts-expect-error a request of the wrong shape
      void page('model.save', { record: 'Zeta-3' });
      void viewer('document.claims', { url: 'https://example.org/' });
      void viewer('store.summary', {});
      void document('claims.save', { claims: [] });
      void page('claims.save', { claims: [] });
    };
    // A wider caller stands in for a narrower one: a component asks for the calls it makes, and is kept to them.
    const narrow: Caller<'models.names'> = page;
    const kept = () => {
      // @ts-expect-error a call the component did not ask for
      void narrow('store.summary', {});
    };
    const asPage: PageCaller = viewer;
    // Never the other way round: a caller of fewer calls does not stand in for one of more, nor one role's for another's.
    // @ts-expect-error a component's narrow caller is not an extension page's
    const widened: PageCaller = narrow;
    // @ts-expect-error an extension page's caller is not a document's
    const asDocument: Caller<'document.claims'> = page;
    // @ts-expect-error a document's caller is not the viewer's
    const asViewer: ViewerCaller = document;
    expect([typeof unsent, typeof kept, typeof asPage, typeof widened, typeof asDocument, typeof asViewer]).toEqual(Array(6).fill('function'));
  });
});
