import { invalid } from '../../http/errors.js';

/** A request's fields by name: the query's, then the form body's over them. */
export type YourlsParams = ReadonlyMap<string, string>;

const FORM = 'application/x-www-form-urlencoded';
const MULTIPART = 'multipart/form-data';
// `fatal`: bytes that are not UTF-8 are refused rather than stored as U+FFFD nobody sent.
const utf8 = new TextDecoder('utf-8', { fatal: true });

/** The query's fields; a name given twice keeps its last value, as PHP's `$_REQUEST` does. */
export function queryParamsOf(url: string): Map<string, string> {
  return new Map(new URL(url).searchParams);
}

/**
 * The fields of a YOURLS request: the query's, with a POST's form fields
 * (`application/x-www-form-urlencoded` or `multipart/form-data`) over them, as PHP merges them
 * into `$_REQUEST`. A body of any other type is refused rather than ignored, so a client that
 * sends JSON learns why its fields went unread; an uploaded file is not a field and is skipped.
 */
export async function readYourlsParams(request: Request, query: Map<string, string>): Promise<YourlsParams> {
  if (request.method !== 'POST') return query;
  const bytes = new Uint8Array(await request.arrayBuffer());
  if (bytes.byteLength === 0) return query;
  const contentType = request.headers.get('content-type') ?? '';
  const mediaType = contentType.split(';', 1)[0]?.trim().toLowerCase() ?? '';
  if (mediaType !== FORM && mediaType !== MULTIPART) {
    throw invalid(
      `Send the fields in the query string or as a form (${FORM} or ${MULTIPART}); a body of type '${mediaType || 'none'}' is not read.`,
    );
  }
  let text: string;
  try {
    text = utf8.decode(bytes);
  } catch {
    throw invalid('The form is not valid UTF-8; send its fields encoded as UTF-8.');
  }
  const params = new Map(query);
  if (mediaType === FORM) {
    for (const [name, value] of new URLSearchParams(text)) params.set(name, value);
    return params;
  }
  let form: FormData;
  try {
    form = await new Response(text, { headers: { 'Content-Type': contentType } }).formData();
  } catch {
    throw invalid(`The ${MULTIPART} body could not be read; check its boundary and parts.`);
  }
  form.forEach((value, name) => {
    if (typeof value === 'string') params.set(name, value);
  });
  return params;
}
