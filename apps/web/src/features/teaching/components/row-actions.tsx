import { useState } from 'react';
import { Alert } from '../../../components/ui/alert';
import { Button } from '../../../components/ui/button';
import { useToast } from '../../../lib/toast';
import { teachingError } from '../errors';

/**
 * A list's one-click row changes (retire, restore, delete): a success is a toast, a refusal is
 * shown under the row it concerns, in the server's words.
 */
export function useRowAction() {
  const toast = useToast();
  const [rowError, setRowError] = useState<{ id: number; text: string } | null>(null);
  async function run(id: number, work: () => Promise<string>) {
    setRowError(null);
    try {
      toast.success(await work());
    } catch (err) {
      setRowError({ id, text: teachingError(err) });
    }
  }
  const errorOf = (id: number) => (rowError?.id === id ? <Alert tone="error">{rowError.text}</Alert> : null);
  return { run, errorOf };
}

/** A row's two buttons (edit, then retire/restore or delete), each named with the row's name for screen readers. */
export function RowActions({
  name,
  edit,
  other,
}: {
  name: string;
  edit?: { label: string; onClick: () => void };
  other: { label: string; onClick: () => void };
}) {
  return (
    <div className="flex gap-1">
      {edit && (
        <Button variant="secondary" className="min-h-9 px-3" aria-label={`${edit.label} ${name}`} onClick={edit.onClick}>
          {edit.label}
        </Button>
      )}
      <Button variant="ghost" className="min-h-9 px-3" aria-label={`${other.label} ${name}`} onClick={other.onClick}>
        {other.label}
      </Button>
    </div>
  );
}

/** The buttons of a row that can be retired: its edit only while in use, then Retire, or Restore once retired. */
export function RetireRowActions({
  name,
  retired,
  edit,
  onRetire,
}: {
  name: string;
  retired: boolean;
  edit: { label: string; onClick: () => void };
  /** Called with the row's new state (true: retire it). */
  onRetire: (retired: boolean) => void;
}) {
  return (
    <RowActions
      name={name}
      edit={retired ? undefined : edit}
      other={{ label: retired ? 'Restore' : 'Retire', onClick: () => onRetire(!retired) }}
    />
  );
}
