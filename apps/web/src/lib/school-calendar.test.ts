import { describe, expect, it } from 'vitest';
import { currentSession, currentSessionId, sessionLabel, sessionOptions, sessionsKey } from './school-calendar';

const sessions = [
  { id: 3, name: '2026/2027', is_current: false },
  { id: 2, name: '2025/2026', is_current: true },
  { id: 1, name: '2024/2025', is_current: false },
];

describe('school calendar (web)', () => {
  it('labels the current session "(current)" and no other', () => {
    expect(sessionLabel(sessions[1]!)).toBe('2025/2026 (current)');
    expect(sessionLabel(sessions[0]!)).toBe('2026/2027');
    expect(sessionOptions(sessions)).toEqual([
      { value: '3', label: '2026/2027' },
      { value: '2', label: '2025/2026 (current)' },
      { value: '1', label: '2024/2025' },
    ]);
    expect(sessionOptions(undefined)).toEqual([]);
  });

  it('opens on the session marked current, else the newest, else none', () => {
    expect(currentSessionId(sessions)).toBe('2');
    expect(currentSession(sessions)?.name).toBe('2025/2026');
    expect(currentSessionId(sessions.map((s) => ({ ...s, is_current: false })))).toBe('3');
    expect(currentSessionId([])).toBe('');
    expect(currentSessionId(undefined)).toBe('');
  });

  it('keeps the one key every screen shares', () => {
    expect(sessionsKey).toEqual(['sessions']);
  });
});
