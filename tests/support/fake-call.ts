/**
 * A stand-in background for the tests of components that take a `call` function: it answers from a table of
 * handlers, by call name, and is a spy, so a test checks what was sent as well as what was shown.
 */
import { type Mock, vi } from 'vitest';
import type { Caller, CallName, RequestOf, ResponseOf } from '../../lib/messages';

/** The answers of a fake background, by call name: a call not listed is refused (the promise rejects). */
export type FakeAnswers<K extends CallName> = { [C in K]?: (request: RequestOf<C>) => ResponseOf<C> | Promise<ResponseOf<C>> };

/** A caller spy: what a component is given, and what the test asks about (`call.mock.calls`, `toHaveBeenCalledWith`). */
export type FakeCall<K extends CallName> = Caller<K> & Mock<(type: K, request: RequestOf<K>) => Promise<unknown>>;

/** A `call` answering from `answers`; `answers` may be changed by the test between calls. */
export function fakeCall<K extends CallName>(answers: FakeAnswers<K>): FakeCall<K> {
  return vi.fn(async (type: K, request: RequestOf<K>) => {
    const answer = answers[type] as ((request: RequestOf<K>) => unknown) | undefined;
    if (!answer) throw new Error(`this test's background does not answer "${type}"`);
    return answer(request);
  }) as unknown as FakeCall<K>;
}
