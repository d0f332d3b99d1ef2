import { describe, expect, it } from 'vitest';
import { ClaimRecord } from '../../lib/schema';
describe('smoke', () => { it('parses', () => { expect(ClaimRecord.safeParse({}).success).toBe(false); }); });
