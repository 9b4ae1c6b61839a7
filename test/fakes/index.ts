/** @module fakes: faithful local fakes of the ten public-data providers. */
export { startFakeProviders, FAKE_DELAY_MS, type FakeProviders } from './fake-providers.ts';
export { ERROR_FORMS, type ErrorForm } from './error-forms.ts';
export { FAKE_KEYS } from './keys.ts';
export type { FakeProviderId } from './providers/index.ts';
