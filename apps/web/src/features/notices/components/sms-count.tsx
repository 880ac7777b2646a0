import { NOTICE_SCREEN_LABELS as L } from '@portal/domain/notice-screens';
import { smsLength } from '../contract';

/** The live count under an SMS text: characters, encoding and SMS units (the domain's rule, as the server counts). */
export function SmsCount({ text, id, testId = 'sms-count' }: { text: string; id?: string; testId?: string }) {
  const { characters, encoding, units } = smsLength(text);
  return (
    <div id={id} className="text-xs text-slate-700" aria-live="polite">
      <p data-testid={testId} data-units={units} data-encoding={encoding}>
        {L.smsCount(characters, encoding, units)}
      </p>
      {encoding === 'UCS-2' && <p className="text-amber-800">{L.unicodeHint}</p>}
    </div>
  );
}
