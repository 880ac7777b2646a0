import { useState, type ChangeEvent } from 'react';
import { MAX_TRAITS_PER_DOMAIN, RATING_DOMAIN_LABELS, REPORT_MESSAGES, type RatingDomain } from '@portal/domain/report-card-rules';
import { REPORT_SHEET_LABELS as L, REPORT_SHEET_MESSAGES as M } from '@portal/domain/report-sheet-screens';
import { Button } from '../../../components/ui/button';
import { TextField } from '../../../components/ui/field';
import type { Form, Errors } from '../settings-model';

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

export function TraitList({
  domain,
  list,
  errors,
  onChange,
}: {
  domain: RatingDomain;
  list: Form['traits'][RatingDomain];
  errors: Errors;
  onChange: (l: Form['traits'][RatingDomain]) => void;
}) {
  const [adding, setAdding] = useState('');
  const title = RATING_DOMAIN_LABELS[domain];
  const move = (i: number, d: number) => {
    const next = [...list];
    [next[i], next[i + d]] = [next[i + d]!, next[i]!];
    onChange(next);
  };
  const listError = errors[`traits.${domain}`];
  return (
    <section aria-labelledby={`traits-${domain}`} className="flex flex-col gap-2" data-testid={`traits-${domain}`}>
      <h3 id={`traits-${domain}`} className="font-semibold">
        {title}
      </h3>
      {!list.length && <p className="text-sm text-slate-600">{M.traitsEmpty}</p>}
      <ol className="flex flex-col gap-2">
        {list.map((t, i) => (
          <li key={t.id ?? `new-${i}`} className="flex flex-wrap items-end gap-1">
            <div className="min-w-40 flex-1">
              <TextField
                label={`${title}: trait ${i + 1}`}
                value={t.name}
                error={errors[`traits.${domain}.${i}.name`]}
                onChange={(e) => onChange(list.map((x, k) => (k === i ? { ...x, name: e.target.value } : x)))}
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
            <Button
              variant="ghost"
              className="px-2"
              onClick={() => onChange(list.filter((_, k) => k !== i))}
              aria-label={`${L.remove}: ${t.name || i + 1}`}
            >
              ✕
            </Button>
          </li>
        ))}
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
              onChange([...list, { name: adding.trim() }]);
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
