/** A view that is planned but not built yet: says what it will do, so the frame is honest. */
export function PlaceholderView({ title, text }: { title: string; text: string }) {
  return (
    <section className="placeholder" aria-labelledby="placeholder-title">
      <h2 id="placeholder-title">{title}</h2>
      <p>{text}</p>
      <p className="muted">This view arrives in a coming version.</p>
    </section>
  );
}
