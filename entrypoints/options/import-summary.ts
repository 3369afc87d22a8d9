import type { ImportReport } from '../../extension/history/import-history.js';
import { language, t } from '../../extension/i18n.js';
import type { LinksImportReport } from '../../extension/porting/import-links-file.js';
import type { SyncReport } from '../../extension/sync/push-pending.js';
import { IMPORT_FORMAT_NAMES } from '../../ui/import-format-names.js';
import { importRowReason } from '../../ui/import-row-reason.js';
import { plural } from '../../ui/plural.js';
import type { ImportProblem } from './import-error.js';

/** Whether the page's language says `count` with its singular ("1 link"), by `Intl.PluralRules`. */
export const isOne = (count: number) => new Intl.PluralRules(language()).select(count) === 'one';

/**
 * A links file's import in words: the file's format by name, how many of its links came in,
 * the other outcomes counted, and each row that did not come in with its reason, one per line.
 * Its tone is what happened: all in (or already there) a success, some a warning, none a failure,
 * so an import that imported nothing never reads as done.
 */
export function linksImportSummary(report: LinksImportReport): ImportProblem {
  const { target, format, created, unchanged, conflict, invalid, skipped, problems } = report;
  const total = created + unchanged + conflict + invalid + skipped;
  const [name, of, all] = [IMPORT_FORMAT_NAMES[format] ?? format, String(created), String(total)];
  // The noun agrees with the file's count of links ("1 of 2 links"), which is $3 here.
  const one = isOne(total);
  const parts =
    target === 'server'
      ? [one ? t('importLinksServerOne', [name, of, all]) : t('importLinksServerOther', [name, of, all])]
      : [one ? t('importLinksLocalOne', [name, of, all]) : t('importLinksLocalOther', [name, of, all])];
  const refused = conflict + invalid + skipped;
  if (refused > 0 || unchanged > 0) {
    parts.push(t('importLinksCounts', [String(unchanged), String(conflict), String(invalid), String(skipped)]));
  }
  if (target === 'server' && created > 0) parts.push(t('importLinksNextSync'));
  const lines = problems.map((row) => {
    const which = row.code || t('webImportRowNumber', [String(row.row)]);
    return `${which}: ${importRowReason(t, row)}`;
  });
  // The report lists the first rows only; the counts cover them all.
  const more = refused - lines.length;
  if (more > 0) lines.push(plural(t, language(), more, { one: 'webImportMoreOne', other: 'webImportMore' }));
  const tone = created + unchanged === 0 ? 'false' : refused > 0 ? 'warn' : 'true';
  return { summary: parts.join(' '), lines, tone };
}

/** A history file's import in words: local codes already held here by another link are a warning. */
export function historyImportSummary(report: ImportReport, serverUrl: string): ImportProblem {
  const [added, skipped, conflicts] = [report.added, report.skipped, report.conflicts].map(String) as [
    string,
    string,
    string,
  ];
  const parts = [
    isOne(report.added)
      ? t('importDoneOne', [added, skipped, conflicts])
      : t('importDone', [added, skipped, conflicts]),
  ];
  const lang = language();
  if (report.rebound > 0) {
    parts.push(plural(t, lang, report.rebound, { one: 'importReboundOne', other: 'importRebound' }, serverUrl));
  }
  if (report.dropped > 0)
    parts.push(plural(t, lang, report.dropped, { one: 'importDroppedOne', other: 'importDropped' }));
  const tone = report.conflicts + report.dropped > 0 ? 'warn' : 'true';
  return { summary: parts.join(' '), lines: [], tone };
}

/** An upload of the local links in words: links refused or still waiting need a look, so they are a warning. */
export function uploadSummary({
  queued,
  synced,
  conflicts,
  failed,
  pending,
}: SyncReport & { queued: number }): ImportProblem {
  const [q, s, p, n] = [String(queued), String(synced), String(pending), String(conflicts + failed)] as const;
  // "1 local link", "2 local links": the count's plural rule picks the sentence.
  const summary = isOne(queued) ? t('uploadDoneOne', [q, s, p, n]) : t('uploadDone', [q, s, p, n]);
  return { summary, lines: [], tone: conflicts + failed + pending > 0 ? 'warn' : 'true' };
}
