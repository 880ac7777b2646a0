import type { ReactNode } from 'react';
import { PageLayout } from '../../../components/layout/app-layout';
import { Alert } from '../../../components/ui/alert';
import { Button } from '../../../components/ui/button';
import { Card } from '../../../components/ui/card';
import { TextField } from '../../../components/ui/field';
import { Spinner } from '../../../components/ui/spinner';

interface RecordLookupProps {
  label: ReactNode;
  value: string;
  placeholder: string;
  hint: string;
  error?: string;
  loading: boolean;
  loadingLabel: string;
  /** Called with the typed value, upper-cased (ids are STU-0001 / STAFF-0001). */
  onChange: (value: string) => void;
  onLoad: (value: string) => void;
}

/** The id field of the update screens: the record loads when the field is left or "Load details" is pressed. */
export function RecordLookup({ label, value, placeholder, hint, error, loading, loadingLabel, onChange, onLoad }: RecordLookupProps) {
  return (
    <>
      <div className="flex flex-wrap items-end gap-3">
        <div className="min-w-56 flex-1">
          <TextField
            label={label}
            value={value}
            placeholder={placeholder}
            autoComplete="off"
            required
            error={error}
            hint={hint}
            onChange={(e) => onChange(e.target.value.toUpperCase())}
            onBlur={() => onLoad(value)}
          />
        </div>
        <Button variant="secondary" onClick={() => onLoad(value)} loading={loading}>
          Load details
        </Button>
      </div>
      {loading && <Spinner label={loadingLabel} />}
    </>
  );
}

/** What an update screen shows once saved, with a way to update another record. */
export function UpdatedCard({ title, message, again, onAgain }: { title: string; message: ReactNode; again: string; onAgain: () => void }) {
  return (
    <PageLayout title={title} width="max-w-3xl">
      <Card>
        <Alert tone="success">{message}</Alert>
        <Button className="mt-4" variant="secondary" onClick={onAgain}>
          {again}
        </Button>
      </Card>
    </PageLayout>
  );
}
