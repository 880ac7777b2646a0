import { useState, type ChangeEvent } from 'react';
import { REPORT_MESSAGES } from '@portal/domain/report-card-rules';
import { REPORT_CARD_SCREEN_MESSAGES as M } from '@portal/domain/report-card-screens';
import { Button } from '../../../components/ui/button';
import { Card } from '../../../components/ui/card';
import { TextField } from '../../../components/ui/field';
import { firstServerMessage } from '../../../lib/errors';
import { useToast } from '../../../lib/toast';
import { useSaveStudentPhoto } from '../api';

/** The server's limit (studentPhotoSchema): a bigger file is refused before it is sent. */
const MAX_BYTES = 2_000_000;

/**
 * The student's photo on the report card (admin), saved on its own like the school logo: choose a
 * PNG or JPEG, see it, save it; or remove it. The server stores what it answers with. `current` is
 * undefined when the student record does not carry the photo: then nothing claims there is none,
 * and removing stays offered.
 */
export function StudentPhotoSection({ admissionNumber, current }: { admissionNumber: string; current: string | undefined }) {
  const toast = useToast();
  const save = useSaveStudentPhoto();
  const [stored, setStored] = useState(current);
  const [chosen, setChosen] = useState<string | null>(null);
  const [error, setError] = useState('');
  const [inputKey, setInputKey] = useState(0);

  function onFile(e: ChangeEvent<HTMLInputElement>) {
    const file = e.target.files?.[0];
    setError('');
    if (!file) return;
    if (file.type !== 'image/png' && file.type !== 'image/jpeg') return setError(REPORT_MESSAGES.photoInvalid);
    if (file.size > MAX_BYTES) return setError(REPORT_MESSAGES.photoTooLarge);
    const reader = new FileReader();
    reader.onload = () => setChosen(typeof reader.result === 'string' ? reader.result : null);
    reader.readAsDataURL(file);
  }

  async function put(photo: string) {
    setError('');
    try {
      const res = await save.mutateAsync({ adm: admissionNumber, photo });
      setStored(res.photo);
      setChosen(null);
      setInputKey((k) => k + 1);
      toast.success(photo ? REPORT_MESSAGES.photoSaved : REPORT_MESSAGES.photoRemoved);
    } catch (err) {
      setError(firstServerMessage(err) ?? M.photoFailed);
    }
  }

  const shown = chosen ?? stored;
  return (
    <Card title="Photo">
      <div className="flex flex-wrap items-start gap-4">
        {shown ? (
          <img
            src={shown}
            alt={chosen ? 'Chosen photo (not saved yet)' : 'Current photo'}
            className="h-32 w-26 rounded border border-slate-300 object-cover"
            data-testid="student-photo"
          />
        ) : stored === undefined ? null : (
          <p className="flex h-32 w-26 items-center justify-center rounded border border-dashed border-slate-300 text-center text-xs text-slate-600">
            No photo
          </p>
        )}
        <div className="flex min-w-0 flex-1 flex-col gap-3">
          <TextField
            key={inputKey}
            label={M.photoLabel}
            hint={M.photoHint}
            type="file"
            accept="image/png,image/jpeg"
            onChange={onFile}
            error={error || undefined}
          />
          <div className="flex flex-wrap gap-2">
            <Button disabled={!chosen} loading={save.isPending && chosen !== null} onClick={() => chosen && void put(chosen)}>
              Save photo
            </Button>
            {chosen && (
              <Button variant="secondary" onClick={() => (setChosen(null), setInputKey((k) => k + 1))}>
                Cancel
              </Button>
            )}
            {stored !== '' && !chosen && (
              <Button variant="ghost" loading={save.isPending} onClick={() => void put('')}>
                Remove photo
              </Button>
            )}
          </div>
        </div>
      </div>
    </Card>
  );
}
