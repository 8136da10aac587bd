/** Text in a <pre>, folded behind a summary line when it is long, so a timeline stays readable. */
const LONG_CHARS = 400;
const LONG_LINES = 8;

export function Collapsible({ label, text }: { label: string; text: string }) {
  const lines = text.split('\n').length;
  if (text.length <= LONG_CHARS && lines <= LONG_LINES) {
    return (
      <figure className="timeline-block">
        <figcaption>{label}</figcaption>
        <pre>{text === '' ? '(empty)' : text}</pre>
      </figure>
    );
  }
  return (
    <details className="timeline-block">
      <summary>
        {label} ({lines} lines, {text.length} characters)
      </summary>
      <pre>{text}</pre>
    </details>
  );
}
