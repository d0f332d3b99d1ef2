// Following the reviews a curator opened: which record versions each carries, and whether the branch, as a pull
// found it, has them (merged: by merge, squash or rebase alike), has moved on (behind), or neither (open).
import { describe, expect, it } from 'vitest';
import { followReviews, indexDataset, KEPT_REVIEWS, recordHash, recordReview, reviewState, type OpenedReview } from '../../../lib/dataset';
import { claim } from '../fixtures/records';

const at = (n: number) => `2026-12-0${n}T10:00:00Z`;
const a1 = claim({ id: 'clm_rev_a00001', model: 'GLM-5', value: 'slime', updated_at: at(1) });
const a2 = claim({ id: 'clm_rev_a00002', model: 'GLM-5', value: 'GRPO', updated_at: at(1) });
const branch = 'curators/alice';

function opened(writes = [a1, a2], base = 'head1'): OpenedReview[] {
  return recordReview([], { branch, url: null, commit: 'rev1', base, writes }, at(2));
}

describe('recording a publish for review', () => {
  it('opens a review carrying each record version it pushed, sorted by record', () => {
    const [r] = opened([a2, a1]);
    expect(r).toMatchObject({ branch, openedAt: at(2), updatedAt: at(2), commit: 'rev1', base: 'head1', state: 'open', mergedAt: null });
    expect(r!.records).toEqual([
      ['claim:clm_rev_a00001', recordHash(a1), at(1)],
      ['claim:clm_rev_a00002', recordHash(a2), at(1)],
    ]);
  });

  it('grows the open review of the branch with a second publish (a newer version replaces the one carried); a merged one gives way to a new review', () => {
    const newer = { ...a1, value: 'slime v2', updated_at: at(3) };
    const grown = recordReview(opened(), { branch, url: null, commit: 'rev2', base: 'head2', writes: [newer] }, at(3));
    expect(grown).toHaveLength(1);
    expect(grown[0]).toMatchObject({ openedAt: at(2), updatedAt: at(3), commit: 'rev2', base: 'head2' });
    expect(grown[0]!.records.map((r) => r[1])).toEqual([recordHash(newer), recordHash(a2)]);
    const merged: OpenedReview[] = [{ ...grown[0]!, state: 'merged', mergedAt: at(4) }];
    const next = recordReview(merged, { branch, url: null, commit: 'rev3', base: 'head3', writes: [a2] }, at(5));
    expect(next.map((r) => [r.state, r.openedAt])).toEqual([
      ['open', at(5)],
      ['merged', at(2)],
    ]);
    expect(next[0]!.records).toHaveLength(1);
  });

  it(`keeps the newest ${KEPT_REVIEWS} reviews`, () => {
    let reviews: OpenedReview[] = [];
    for (let i = 0; i < KEPT_REVIEWS + 3; i++) {
      reviews = recordReview(reviews, { branch: `curators/c${i}`, url: null, commit: `c${i}`, base: 'h', writes: [a1] }, at(1));
    }
    expect(reviews).toHaveLength(KEPT_REVIEWS);
    expect(reviews[0]!.branch).toBe(`curators/c${KEPT_REVIEWS + 2}`);
  });
});

describe('a review after a pull', () => {
  it('is open while the branch is where the review was built and lacks its records', () => {
    const [r] = opened();
    expect(reviewState(r!, 'head1', indexDataset([]))).toBe('open');
  });

  it('is behind once the branch moved on without its records, or with only some of them', () => {
    const [r] = opened();
    expect(reviewState(r!, 'head2', indexDataset([]))).toBe('behind');
    expect(reviewState(r!, 'head2', indexDataset([a1]))).toBe('behind');
  });

  it('is merged when every version it carried is in the branch, or a newer version of it; never for a review that carried nothing', () => {
    const [r] = opened();
    expect(reviewState(r!, 'squashed', indexDataset([a1, a2]))).toBe('merged');
    expect(reviewState(r!, 'later', indexDataset([a1, { ...a2, value: 'edited after the merge', updated_at: at(5) }]))).toBe('merged');
    // Another version, not newer, is not this review's change.
    expect(reviewState(r!, 'later', indexDataset([a1, { ...a2, value: 'someone else', updated_at: at(1) }]))).toBe('behind');
    const empty: OpenedReview = { ...r!, records: [] };
    expect(reviewState(empty, 'x', indexDataset([a1]))).toBe('behind');
  });

  it('stays merged once seen merged, with the time it was first seen', () => {
    const [r] = opened();
    const first = followReviews([r!], 'h2', indexDataset([a1, a2]), at(6));
    expect(first[0]).toMatchObject({ state: 'merged', mergedAt: at(6) });
    const later = followReviews(first, 'h3', indexDataset([]), at(7));
    expect(later[0]).toMatchObject({ state: 'merged', mergedAt: at(6) });
    // An unchanged review is the same object (nothing to write).
    expect(followReviews([r!], 'head1', indexDataset([]), at(7))[0]).toBe(r);
  });
});

describe('the status line', () => {
  it('counts the reviews behind the branch and the open ones, and says nothing of merged ones', async () => {
    const { statusParts } = await import('../../../components/common/dataset');
    const view = (state: OpenedReview['state']) => ({ branch, url: null, openedAt: at(1), updatedAt: at(1), state, mergedAt: null, records: 1 });
    const status = { connected: true, lastPullAt: null, lastPublishAt: null, unpublished: 0, conflicts: 0, running: null, lastError: null };
    expect(statusParts({ ...status, reviews: [view('behind'), view('open'), view('open'), view('merged')] }).slice(3)).toEqual([
      '1 review behind the branch',
      '2 reviews open',
    ]);
    expect(statusParts({ ...status, reviews: [view('merged')] })).toHaveLength(3);
  });
});
