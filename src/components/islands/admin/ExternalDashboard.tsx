/** A dashboard kept elsewhere (a Plausible or Umami share link, say), framed on the admin page when its address is configured. */
export function ExternalDashboard({ url }: { url: string }) {
  return (
    <section aria-labelledby="external-dashboard-title" className="grid gap-4">
      <h3 id="external-dashboard-title" className="text-xl font-bold">
        External dashboard
      </h3>
      <iframe
        src={url}
        title="External dashboard"
        className="h-[40rem] w-full rounded-(--radius-card) ring-1 ring-ink-100"
        loading="lazy"
        referrerPolicy="strict-origin-when-cross-origin"
      />
    </section>
  );
}
