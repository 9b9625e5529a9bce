/** The owner's analytics dashboard, embedded when its share link is configured; how to set it up when not. */
export function Analytics({ url }: { url?: string }) {
  return (
    <section aria-labelledby="analytics-title" className="grid gap-4">
      <h3 id="analytics-title" className="text-xl font-bold">
        Analytics
      </h3>
      {url ? (
        <iframe
          src={url}
          title="Analytics dashboard"
          className="h-[40rem] w-full rounded-(--radius-card) ring-1 ring-ink-100"
          loading="lazy"
          referrerPolicy="strict-origin-when-cross-origin"
        />
      ) : (
        <p className="rounded-(--radius-card) bg-ink-50 p-6 text-ink-700 ring-1 ring-ink-100">
          No analytics dashboard is configured. Set{' '}
          <code className="rounded bg-white px-1.5 py-0.5 wrap-anywhere">PUBLIC_ANALYTICS_DASHBOARD_URL</code> to the
          shareable link of your analytics dashboard (for example a public Plausible or Umami share link) and redeploy
          to see it here.
        </p>
      )}
    </section>
  );
}
