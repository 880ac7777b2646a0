import { describe, expect, it } from 'vitest';
import { DEFAULT_TIME_ZONE, formatDate, formatDateTime, isValidTimeZone, welcomeMessage } from './datetime';

describe('formatDateTime', () => {
  it('shows the time in the school time zone (Africa/Lagos by default), whatever the machine clock', () => {
    expect(DEFAULT_TIME_ZONE).toBe('Africa/Lagos');
    expect(formatDateTime('2026-11-23T08:34:00.000Z')).toBe('23 Nov 2026, 09:34');
    expect(formatDateTime('2026-11-23T08:34:00.000Z', 'UTC')).toBe('23 Nov 2026, 08:34');
    expect(formatDateTime('2026-11-23T23:30:00.000Z')).toBe('24 Nov 2026, 00:30');
    expect(formatDate('2026-11-23T23:30:00.000Z')).toBe('24 Nov 2026');
  });
  it('falls back to the default zone for an unknown one and prints a dash for no date', () => {
    expect(isValidTimeZone('Mars/Olympus')).toBe(false);
    expect(formatDateTime('2026-11-23T08:34:00.000Z', 'Mars/Olympus')).toBe('23 Nov 2026, 09:34');
    expect(formatDateTime(null)).toBe('—');
  });
});

describe('welcomeMessage', () => {
  it('greets by name, and the first admin placeholder "School" by none', () => {
    expect(welcomeMessage('Ada')).toBe('Welcome, Ada!');
    expect(welcomeMessage('School')).toBe('Welcome!');
    expect(welcomeMessage('')).toBe('Welcome!');
  });
});
