import { useState } from 'react';
import { BURSARY_SCREEN_LABELS as L, BURSARY_SCREEN_MESSAGES as M } from '@portal/domain/bursary-screens';
import { SCAN_TYPES } from '@portal/domain/bursary';
import { Button } from '../../../components/ui/button';
import { TextField } from '../../../components/ui/field';
import { scanProblem } from '../record-model';

function readAsDataUrl(file: File): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(typeof reader.result === 'string' ? reader.result : '');
    reader.onerror = () => reject(reader.error ?? new Error('read failed'));
    reader.readAsDataURL(file);
  });
}

/**
 * The teller's scan: type and size checked before it is read, then kept as a data URL to send.
 * A student's slip passes its own label and `accept="image/*,application/pdf"`, so a phone offers the camera.
 */
export function ScanField({
  id,
  value,
  onChange,
  onProblem,
  error,
  label = L.scan,
  hint = L.scanHint,
  accept = SCAN_TYPES.join(','),
  required,
}: {
  id: string;
  value: string;
  onChange: (dataUrl: string) => void;
  onProblem: (message: string) => void;
  error?: string[];
  label?: string;
  hint?: string;
  accept?: string;
  required?: boolean;
}) {
  const [name, setName] = useState('');
  // A new key clears the file input after "Remove" or a refused file.
  const [inputKey, setInputKey] = useState(0);
  async function choose(file: File | undefined) {
    if (!file) return;
    const problem = scanProblem(file);
    if (problem) {
      onChange('');
      setName('');
      setInputKey((k) => k + 1);
      onProblem(problem);
      return;
    }
    try {
      onChange(await readAsDataUrl(file));
      setName(file.name);
    } catch {
      onProblem(M.scanReadFailed);
    }
  }
  return (
    <div className="flex flex-col gap-2">
      <TextField
        key={inputKey}
        id={id}
        label={label}
        type="file"
        accept={accept}
        required={required}
        hint={hint}
        error={error}
        onChange={(e) => void choose(e.target.files?.[0])}
      />
      {value && (
        <div className="flex flex-wrap items-center gap-3 text-sm">
          {value.startsWith('data:image/') && <img src={value} alt={name} className="h-16 w-auto rounded border border-slate-200" />}
          <span className="min-w-0 [overflow-wrap:anywhere]">{name}</span>
          <Button
            variant="secondary"
            onClick={() => {
              onChange('');
              setName('');
              setInputKey((k) => k + 1);
            }}
          >
            {L.removeScan}
          </Button>
        </div>
      )}
    </div>
  );
}
