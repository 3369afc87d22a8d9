import type { ManagedLinkStore } from '../../core/store/link-management-store.js';
import { type CountedClickBatch, encodeVisits } from '../../server/clicks/encoded-visits.js';

/**
 * A server store handed its batches' visits encoded, as the server's click counter hands them
 * (`encodedVisits`), so the visit contract holds for that form as for `visits` rows.
 */
export function withEncodedVisits<S extends ManagedLinkStore>(store: S): S {
  const encoded = Object.create(store) as S;
  encoded.addClicks = ({ visits, ...batch }) => {
    const counted: CountedClickBatch =
      visits === undefined || visits.length === 0 ? batch : { ...batch, encodedVisits: encodeVisits(visits) };
    return store.addClicks(counted);
  };
  return encoded;
}
