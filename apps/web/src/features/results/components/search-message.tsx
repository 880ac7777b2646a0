import { Alert } from '../../../components/ui/alert';

/** The one message under a result search form (useResultSearch's), or nothing. */
export function SearchMessage({ message }: { message: { tone: 'error' | 'info'; text: string } | null }) {
  if (!message) return null;
  return (
    <Alert tone={message.tone} className="mb-4">
      {message.text}
    </Alert>
  );
}
