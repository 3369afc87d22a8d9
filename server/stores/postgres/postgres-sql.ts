// Times are timestamptz in the tables and epoch milliseconds in Linklet; these convert exactly
// (timestamptz keeps microseconds). pg hands bigint back as a string; epoch ms fit a number.
export const fromMs = (param: string) => `(timestamptz 'epoch' + ${param}::bigint * interval '1 millisecond')`;
export const toMs = (column: string) => `(extract(epoch FROM ${column}) * 1000)::bigint`;
