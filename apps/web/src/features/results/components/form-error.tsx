import { Alert } from '../../../components/ui/alert';

/** Why a lookup form could not be sent, under the form; nothing when there is no message. */
export function FormError({ message }: { message: string }) {
  return message ? (
    <Alert tone="error" className="mt-4">
      {message}
    </Alert>
  ) : null;
}
