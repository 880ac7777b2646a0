// @vitest-environment happy-dom
import { useState } from 'react';
import { flushSync } from 'react-dom';
import { createRoot } from 'react-dom/client';
import { describe, expect, it } from 'vitest';
import { keepTypedFields } from './server-state';

/** The app's page: controlled fields whose state starts from the address, as the card's form does. */
function AppForm() {
  const [admission, setAdmission] = useState('STU-0001');
  const [term, setTerm] = useState('1st');
  return (
    <form>
      <input name="admission_number" value={admission} onChange={(e) => setAdmission(e.target.value)} />
      <select name="term" value={term} onChange={(e) => setTerm(e.target.value)}>
        <option value="1st">1st</option>
        <option value="2nd">2nd</option>
      </select>
      <input name="untouched" defaultValue="same" />
      <output data-testid="state">{`${admission}|${term}`}</output>
    </form>
  );
}

/** The server's markup of the same form, typed into before the app started (decision 049). */
function serverPage(): HTMLElement {
  const root = document.createElement('div');
  root.innerHTML =
    '<form><input name="admission_number" value="STU-0001"><select name="term"><option value="1st" selected>1st</option>' +
    '<option value="2nd">2nd</option></select><input name="untouched" value="same"></form>';
  document.body.append(root);
  const input = root.querySelector<HTMLInputElement>('[name="admission_number"]')!;
  input.value = 'STU-0042';
  root.querySelector<HTMLSelectElement>('[name="term"]')!.value = '2nd';
  input.focus();
  return root;
}

describe('a page the server rendered, replaced by the app', () => {
  it('the app’s page takes what was typed before it started, and the focus', () => {
    const root = serverPage();
    const giveBack = keepTypedFields(root);
    flushSync(() => createRoot(root).render(<AppForm />));
    giveBack();
    expect(root.querySelector('output')!.textContent).toBe('STU-0042|2nd');
    expect(root.querySelector<HTMLInputElement>('[name="admission_number"]')!.value).toBe('STU-0042');
    expect((document.activeElement as HTMLInputElement | null)?.name).toBe('admission_number');
    expect(root.querySelector<HTMLInputElement>('[name="untouched"]')!.value).toBe('same');
  });

  it('nothing typed: the app’s page is left as it rendered', () => {
    const root = document.createElement('div');
    root.innerHTML = '<form><input name="admission_number" value="STU-0001"></form>';
    document.body.append(root);
    const giveBack = keepTypedFields(root);
    flushSync(() => createRoot(root).render(<AppForm />));
    giveBack();
    expect(root.querySelector('output')!.textContent).toBe('STU-0001|1st');
  });
});
