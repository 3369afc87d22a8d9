import { catalogMessages } from '../ui/catalog-messages.js';
import { createI18n } from '../ui/i18n.js';

/**
 * The web app's words: the extension's catalogs, in the first of the browser's languages there is
 * one for. No extension API is involved, so nothing here can be `undefined` at run time.
 */
export const { t, language, localizePage } = createI18n(
  catalogMessages(navigator.languages?.length ? navigator.languages : [navigator.language]),
);
