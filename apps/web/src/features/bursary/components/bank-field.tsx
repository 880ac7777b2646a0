import type { ChangeEventHandler } from 'react';
import { BURSARY_SCREEN_LABELS as L } from '@portal/domain/bursary-screens';
import { TextField } from '../../../components/ui/field';
import { useBanks } from '../api';

/**
 * The bank: typed, with the list of banks offered as the user types (a datalist: the name, and the
 * other names people write, so "GTB" finds Guaranty Trust Bank). The server matches what is typed
 * to the list and refuses a bank it does not know.
 */
export function BankField(props: {
  id: string;
  label: string;
  value: string;
  onChange: ChangeEventHandler<HTMLInputElement>;
  error?: string[];
}) {
  const banks = useBanks();
  const listId = `${props.id}-banks`;
  return (
    <>
      <TextField {...props} required autoComplete="off" list={listId} hint={L.bankHint} />
      <datalist id={listId} data-testid="bank-options">
        {(banks.data ?? []).map((b) => (
          <option key={b.code} value={b.name} label={b.aliases.length ? b.aliases.join(', ') : undefined} />
        ))}
      </datalist>
    </>
  );
}
