import { NOTICE_TEMPLATE_MESSAGES } from '@portal/domain/notice-templates';
import { nonGsmCharacters, smsLength } from '@portal/domain/notice-templates-sms';
import { NOTICE_SCREEN_LABELS as L } from '@portal/domain/notice-screens';

/**
 * The live count under an SMS text: characters, encoding and SMS units (the domain's rule, the one the
 * server estimates with), and which characters make it UCS-2.
 */
export function SmsCount({ text, id, testId = 'sms-count' }: { text: string; id?: string; testId?: string }) {
  const { characters, encoding, units } = smsLength(text);
  return (
    <div id={id} className="mt-1 text-xs text-slate-700" aria-live="polite">
      <p data-testid={testId} data-units={units} data-encoding={encoding}>
        {L.smsCount(characters, encoding, units)}
      </p>
      {encoding === 'UCS-2' && <p className="text-amber-900">{NOTICE_TEMPLATE_MESSAGES.unicodeWarning(nonGsmCharacters(text))}</p>}
    </div>
  );
}
