import { auctionStatus, type StatusFacts } from '../lib/format';

/**
 * A lot's auction status as a pill (Upcoming, Live, Ended, with its sale type): a buyer scans a list for what is
 * live right now, so Live stands out and Ended is muted. Shared by the search results and the lot page.
 */
export function StatusPill({ lot }: { lot: StatusFacts }) {
  const st = auctionStatus(lot);
  const cls = st.tone === 'live' ? 'pill live' : st.tone === 'ended' ? 'pill ended' : 'pill';
  return (
    <span className={cls}>
      {st.label}
      {st.saleType ? <span className="pill-sub"> · {st.saleType}</span> : null}
    </span>
  );
}
