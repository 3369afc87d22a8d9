// JSON Schema pieces every feature's schemas use.

/** An ISO 8601 UTC instant with milliseconds, as every v1 date is written. */
export const ISO_DATE = '^\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}\\.\\d{3}Z$';
export const isoDate = { type: 'string', pattern: ISO_DATE };

/** A success envelope around `data` (or with no `data`): strict, like every answer's schema. */
export const answerOf = (data?: object) => ({
  type: 'object',
  additionalProperties: false,
  required: data === undefined ? ['status', 'message'] : ['status', 'message', 'data'],
  properties: {
    status: { const: 'success' },
    message: { type: 'string', minLength: 1 },
    ...(data && { data }),
  },
});

/** An object with exactly these properties, all required but `optional`. */
export const strictObject = (properties: Record<string, object>, optional: string[] = []) => ({
  type: 'object',
  additionalProperties: false,
  required: Object.keys(properties).filter((name) => !optional.includes(name)),
  properties,
});

/** A reference to a named schema of the document. */
export const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
