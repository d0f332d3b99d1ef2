import { describe, expect, it } from 'vitest';
import { backupReminder, backupState, BACKUP_FORMAT, NO_BACKUP, parseBackup, toBackup, withChanges } from '../../../lib/backup';
import { claim, model } from '../fixtures/records';

const NOW = '2026-11-29T10:00:00Z';

describe('the backup reminder', () => {
  it('stays quiet without changes, however long ago the last backup was', () => {
    expect(backupReminder({ lastBackupAt: '2020-01-01T00:00:00Z', changes: 0, firstChangeAt: null }, NOW)).toEqual({ due: false, reason: null });
    expect(backupReminder(NO_BACKUP, NOW).due).toBe(false);
  });

  it('reminds after 50 changed records', () => {
    expect(backupReminder({ lastBackupAt: '2026-11-28T10:00:00Z', changes: 49, firstChangeAt: '2026-11-28T11:00:00Z' }, NOW).due).toBe(false);
    const due = backupReminder({ lastBackupAt: '2026-11-28T10:00:00Z', changes: 50, firstChangeAt: '2026-11-28T11:00:00Z' }, NOW);
    expect(due).toEqual({ due: true, reason: '50 records changed since the last backup' });
  });

  it('reminds 14 days after the last backup, or after the first change when there was none', () => {
    expect(backupReminder({ lastBackupAt: '2026-11-16T10:00:00Z', changes: 1, firstChangeAt: '2026-11-20T10:00:00Z' }, NOW).due).toBe(false);
    expect(backupReminder({ lastBackupAt: '2026-11-15T10:00:00Z', changes: 1, firstChangeAt: '2026-11-20T10:00:00Z' }, NOW)).toEqual({
      due: true,
      reason: '1 record changed since the last backup; the last backup was 14 days ago',
      days: 14,
    });
    expect(backupReminder({ lastBackupAt: null, changes: 3, firstChangeAt: '2026-11-01T10:00:00Z' }, NOW).reason).toBe(
      '3 records changed since you started, and no backup yet; the first change was 28 days ago',
    );
  });

  it('counts changes and reads malformed state as none', () => {
    expect(withChanges(NO_BACKUP, 3, NOW)).toEqual({ lastBackupAt: null, changes: 3, firstChangeAt: NOW });
    expect(withChanges({ lastBackupAt: null, changes: 3, firstChangeAt: NOW }, 2, '2026-12-01T00:00:00Z').firstChangeAt).toBe(NOW);
    expect(backupState({ changes: 'many', lastBackupAt: 5 })).toEqual(NO_BACKUP);
    expect(backupState(null)).toEqual(NO_BACKUP);
  });
});

describe('backup documents', () => {
  const records = {
    claims: [claim({ id: 'clm_b0000001', extra: { kept: true } }), claim({ id: 'clm_a0000001', note: undefined })],
    models: [model()],
    sources: [],
  };

  it('hold every record exactly as stored, one per line, in a fixed order', () => {
    const text = toBackup(records, NOW);
    expect(text.startsWith(`{"format":"${BACKUP_FORMAT}","created_at":"${NOW}","counts":{"claims":2,"models":1,"sources":0,"source_records":0}`)).toBe(true);
    expect(text.split('\n').filter((l) => l.startsWith('{"schema"'))).toHaveLength(3);
    expect(toBackup({ ...records, claims: [...records.claims].reverse() }, NOW)).toBe(text);
    const parsed = parseBackup(text);
    expect(parsed.errors).toEqual([]);
    expect(parsed.records).toEqual(expect.arrayContaining([...records.claims, ...records.models]));
    expect(parsed.records.find((r) => 'id' in r && r.id === 'clm_a0000001')).not.toHaveProperty('note');
  });

  it('carry source corrections and check them', () => {
    const source = {
      url: 'https://example.org/zeta',
      title: 'Zeta',
      kind: 'technical_report' as const,
      publisher: 'Zeta Lab',
      published: null,
      updated_at: NOW,
    };
    const text = toBackup({ ...records, sources: [source] }, NOW);
    expect(parseBackup(text).sources).toEqual([source]);
    const bad = parseBackup(text.replace('"technical_report"', '"rumour"'));
    expect(bad.errors).toHaveLength(1);
    expect(bad.errors[0]!.message).toMatch(/^source correction 1: kind/);
    expect(bad.errors[0]!.line).toBe(3);
  });

  it('may be empty', () => {
    const parsed = parseBackup(toBackup({ claims: [], models: [], sources: [] }, NOW));
    expect(parsed).toEqual({ records: [], sources: [], sourceRecords: [], errors: [], items: 0 });
  });
});
