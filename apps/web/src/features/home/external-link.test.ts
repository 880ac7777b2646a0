import { describe, expect, it } from 'vitest';
import { externalLink } from './external-link';

describe('externalLink: the admission page links out only to a web address', () => {
  it('keeps http and https addresses', () => {
    expect(externalLink('https://example.school/apply')).toBe('https://example.school/apply');
    expect(externalLink('http://example.school')).toBe('http://example.school/');
  });
  it('never links a script, data, relative or empty address', () => {
    for (const a of [
      'javascript:alert(1)',
      ' JavaScript:alert(1)',
      'data:text/html,<script>1</script>',
      '/admission',
      'example.school',
      '',
    ])
      expect(externalLink(a)).toBeNull();
  });
});
