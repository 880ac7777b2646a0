import { useState, type ChangeEvent } from 'react';
import { MAX_TRAITS_PER_DOMAIN, RATING_DOMAIN_LABELS, REPORT_MESSAGES, type RatingDomain } from '@portal/domain/report-card-rules';
import { REPORT_SHEET_LABELS as L, REPORT_SHEET_MESSAGES as M } from '@portal/domain/report-sheet-screens';
import { Button } from '../../../components/ui/button';
import { TextField } from '../../../components/ui/field';
import { useFieldArray, type useSchemaFieldForm } from '../../../lib/schema-field-array';
import type { Form } from '../settings-model';

/** A bank field's label as shown, with the comment's number for screen readers (every comment has the same fields). */
export function numbered(label: string, i: number) {
  return (
    <>
      {label}
      <span className="sr-only"> ({i + 1})</span>
    </>
  );
}

const MAX_IMAGE = 2_000_000;

/** The settings form as its parts edit it. */
export type SettingsFormApi = ReturnType<typeof useSchemaFieldForm<Form>>;

export function TraitList({ domain, form }: { domain: RatingDomain; form: SettingsFormApi }) {
  const [adding, setAdding] = useState('');
  // `key`, not react-hook-form's `id`: a stored trait's own id is part of its value (its ratings follow it).
  const rows = useFieldArray({ control: form.control, name: `traits.${domain}`, keyName: 'key' });
  const list = form.getValues(`traits.${domain}`);
  const title = RATING_DOMAIN_LABELS[domain];
  const move = (i: number, d: number) => rows.swap(i, i + d);
  const listError = form.errorOf(`traits.${domain}`);
  return (
    <section aria-labelledby={`traits-${domain}`} className="flex flex-col gap-2" data-testid={`traits-${domain}`}>
      <h3 id={`traits-${domain}`} className="font-semibold">
        {title}
      </h3>
      {!list.length && <p className="text-sm text-slate-600">{M.traitsEmpty}</p>}
      <ol className="flex flex-col gap-2">
        {rows.fields.map(({ key }, i) => {
          const t = list[i]!;
          return (
            <li key={key} className="flex flex-wrap items-end gap-1">
              <div className="min-w-40 flex-1">
                <TextField
                  label={`${title}: trait ${i + 1}`}
                  value={t.name}
                  error={form.errorOf(`traits.${domain}.${i}.name`)}
                  onChange={(e) => form.setField(`traits.${domain}.${i}.name`, e.target.value)}
                />
              </div>
              <Button
                variant="ghost"
                className="px-2"
                disabled={i === 0}
                onClick={() => move(i, -1)}
                aria-label={`${L.moveUp}: ${t.name || i + 1}`}
              >
                ↑
              </Button>
              <Button
                variant="ghost"
                className="px-2"
                disabled={i === list.length - 1}
                onClick={() => move(i, 1)}
                aria-label={`${L.moveDown}: ${t.name || i + 1}`}
              >
                ↓
              </Button>
              <Button variant="ghost" className="px-2" onClick={() => rows.remove(i)} aria-label={`${L.remove}: ${t.name || i + 1}`}>
                ✕
              </Button>
            </li>
          );
        })}
      </ol>
      {listError && (
        <p className="text-sm text-red-700" role="alert">
          {listError[0]}
        </p>
      )}
      {list.length < MAX_TRAITS_PER_DOMAIN && (
        <div className="flex flex-wrap items-end gap-2">
          <div className="min-w-40 flex-1">
            <TextField label={`${L.newTrait} (${title.toLowerCase()})`} value={adding} onChange={(e) => setAdding(e.target.value)} />
          </div>
          <Button
            variant="secondary"
            disabled={!adding.trim()}
            onClick={() => {
              rows.append({ name: adding.trim() }, { shouldFocus: false });
              setAdding('');
            }}
          >
            {L.addTrait}
          </Button>
        </div>
      )}
    </section>
  );
}

export function ImageField({
  label,
  removeLabel,
  value,
  error,
  onChange,
  onError,
}: {
  label: string;
  removeLabel: string;
  value: string;
  error: string[] | undefined;
  onChange: (v: string) => void;
  onError: (m: string) => void;
}) {
  function onFile(e: ChangeEvent<HTMLInputElement>) {
    const file = e.target.files?.[0];
    if (!file) return;
    if (file.size > MAX_IMAGE) return onError(M.imageTooLarge);
    if (!['image/png', 'image/jpeg'].includes(file.type)) return onError(REPORT_MESSAGES.imageInvalid);
    const reader = new FileReader();
    reader.onload = () => onChange(typeof reader.result === 'string' ? reader.result : '');
    reader.readAsDataURL(file);
  }
  return (
    <div className="flex flex-col gap-2">
      <TextField label={label} type="file" accept="image/png,image/jpeg" onChange={onFile} error={error} />
      {value && (
        <div className="flex items-center gap-3">
          <img src={value} alt={`Current: ${label.split(' (')[0]}`} className="h-14 w-28 rounded border object-contain" />
          <Button variant="ghost" onClick={() => onChange('')}>
            {removeLabel}
          </Button>
        </div>
      )}
    </div>
  );
}
