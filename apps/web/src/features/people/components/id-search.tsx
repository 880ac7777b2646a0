import type { ReactNode } from 'react';
import { Button, type ButtonProps } from '../../../components/ui/button';
import { Card } from '../../../components/ui/card';
import { TextField } from '../../../components/ui/field';

/**
 * The find and delete screens' search: one ID field (typed upper-case, as the IDs are) and its
 * button, in a card. The screen keeps the value and decides what the button does.
 */
export function IdSearchCard({
  label,
  placeholder,
  value,
  error,
  busy,
  button,
  variant,
  onChange,
  onSearch,
}: {
  label: string;
  placeholder: string;
  value: string;
  error?: string;
  busy: boolean;
  button: ReactNode;
  variant?: ButtonProps['variant'];
  onChange: (value: string) => void;
  onSearch: () => void;
}) {
  return (
    <Card>
      <form
        className="flex flex-wrap items-end gap-3"
        noValidate
        onSubmit={(e) => {
          e.preventDefault();
          onSearch();
        }}
      >
        <div className="min-w-56 flex-1">
          <TextField
            label={label}
            placeholder={placeholder}
            autoComplete="off"
            value={value}
            error={error}
            onChange={(e) => onChange(e.target.value.toUpperCase())}
          />
        </div>
        <Button type="submit" variant={variant} loading={busy}>
          {button}
        </Button>
      </form>
    </Card>
  );
}
