/** Registry of the fake providers: handler and real base path of each. */
import type { FakeReply, FakeRequest } from '../wire.ts';
import { kma, KMA_BASE } from './kma.ts';
import { kapt, KAPT_BASE } from './kapt.ts';
import { tour, TOUR_BASE } from './tour.ts';
import { nts, NTS_BASE } from './nts.ts';
import { fsc, FSC_BASE } from './fsc.ts';
import { mss, MSS_BASE } from './mss.ts';
import { law, LAW_BASE } from './law.ts';
import { dart, DART_BASE } from './dart.ts';
import { ecos, ECOS_BASE } from './ecos.ts';
import { rtms, RTMS_BASE } from './rtms.ts';

/** Handlers by provider id (the first path segment of the fake). */
export const PROVIDER_HANDLERS = { kma, kapt, tour, nts, fsc, mss, law, dart, ecos, rtms } satisfies Record<string, (req: FakeRequest) => FakeReply | Promise<FakeReply>>;

/** Id of a fake provider. */
export type FakeProviderId = keyof typeof PROVIDER_HANDLERS;

/** Real base path of each provider, appended to `<origin>/<id>` in the base-URL settings. */
export const PROVIDER_PREFIXES: Record<FakeProviderId, string> = {
  kma: KMA_BASE, kapt: KAPT_BASE, tour: TOUR_BASE, nts: NTS_BASE, fsc: FSC_BASE, mss: MSS_BASE, law: LAW_BASE, dart: DART_BASE, ecos: ECOS_BASE, rtms: RTMS_BASE,
};
