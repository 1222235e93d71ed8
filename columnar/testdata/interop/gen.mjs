// gen.mjs writes the interop fixtures of obskit's columnar tests with writers
// that share no code with obskit: apache-arrow (the JavaScript implementation of
// Arrow), parquet-wasm (arrow-rs's Parquet writer compiled to WebAssembly) and
// DuckDB (@duckdb/node-api). Run it from this directory:
//
//	npm ci && node gen.mjs [outdir]
//
// Every file holds the rows of one formula of the row number i, so that the Go
// tests compute what each row must read as (interop_test.go, rowWant):
//
//	id    int64            i
//	label int64            2^33 + 7i (past 2^32)
//	u8    uint8            i mod 256
//	x     float32[4]       [i, i+0.5, -i, i/4] (a fixed-size list)
//	f64   float64          i/10, except NaN at i=1, +Inf at i=2, -Inf at i=3
//	name  utf8, nullable   null when i mod 5 = 0, else "name-<i>"
//	cat   dictionary utf8  red, green, blue for i mod 3 = 0, 1, 2
//	toks  list<int32>      null when i mod 4 = 0, [] when 1, else the i mod 4
//	                       values i, i+1, ...; the first is null when i mod 7 = 3
//	bin   binary           the two bytes i mod 256, 3i mod 256
//	ts    timestamp        1700000000 s + i s, UTC (ms in Arrow, us in DuckDB)
//	flag  bool             i even
import { writeFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import * as A from 'apache-arrow';
import * as PQ from 'parquet-wasm';
import { DuckDBInstance } from '@duckdb/node-api';

const out = process.argv[2] ?? '.';
mkdirSync(out, { recursive: true });

function col(lo, hi, f) {
  const v = [];
  for (let i = lo; i < hi; i++) v.push(f(i));
  return v;
}

function toks(i) {
  const m = i % 4;
  if (m === 0) return null;
  const v = [];
  for (let k = 0; m > 1 && k < m; k++) v.push(k === 0 && i % 7 === 3 ? null : i + k);
  return v;
}

function f64(i) {
  if (i === 1) return NaN;
  if (i === 2) return Infinity;
  if (i === 3) return -Infinity;
  return i / 10;
}

// The rows lo..hi-1 as one record batch.
const dictType = new A.Dictionary(new A.Utf8(), new A.Int32(), 0, false);
function batchTable(lo, hi) {
  return new A.Table({
    id: A.vectorFromArray(col(lo, hi, (i) => BigInt(i)), new A.Int64()),
    label: A.vectorFromArray(col(lo, hi, (i) => 2n ** 33n + 7n * BigInt(i)), new A.Int64()),
    u8: A.vectorFromArray(col(lo, hi, (i) => i % 256), new A.Uint8()),
    x: A.vectorFromArray(col(lo, hi, (i) => [i, i + 0.5, -i, i / 4]),
      new A.FixedSizeList(4, new A.Field('item', new A.Float32(), false))),
    f64: A.vectorFromArray(col(lo, hi, f64), new A.Float64()),
    name: A.vectorFromArray(col(lo, hi, (i) => (i % 5 === 0 ? null : `name-${i}`)), new A.Utf8()),
    cat: A.vectorFromArray(col(lo, hi, (i) => ['red', 'green', 'blue'][i % 3]), dictType),
    toks: A.vectorFromArray(col(lo, hi, toks), new A.List(new A.Field('item', new A.Int32(), true))),
    bin: A.vectorFromArray(col(lo, hi, (i) => Uint8Array.of(i % 256, (3 * i) % 256)), new A.Binary()),
    ts: A.vectorFromArray(col(lo, hi, (i) => new Date((1700000000 + i) * 1000)), new A.TimestampMillisecond()),
    flag: A.vectorFromArray(col(lo, hi, (i) => i % 2 === 0), new A.Bool()),
  });
}

// Arrow IPC from apache-arrow: 1000 rows in batches of 300, 300, 300, 100, in
// the file and the stream formats.
const N = 1000;
const whole = batchTable(0, N);
const batches = [];
for (let lo = 0; lo < N; lo += 300) batches.push(...whole.slice(lo, Math.min(N, lo + 300)).batches);
const table = new A.Table(batches);
writeFileSync(join(out, 'js.arrow'), A.tableToIPC(table, 'file'));
writeFileSync(join(out, 'js.arrows'), A.tableToIPC(table, 'stream'));

// Parquet from arrow-rs (parquet-wasm): the same table, whose lists have the
// inner field named "item", in row groups of 256 with snappy and one row group
// with zstd. The dictionary column is written as dictionary-encoded text.
for (const [name, codec, rg] of [['rs-snappy.parquet', PQ.Compression.SNAPPY, 256], ['rs-zstd.parquet', PQ.Compression.ZSTD, 1 << 20]]) {
  const props = new PQ.WriterPropertiesBuilder().setCompression(codec).setMaxRowGroupSize(rg).build();
  writeFileSync(join(out, name), PQ.writeParquet(PQ.Table.fromIPCStream(A.tableToIPC(table, 'stream')), props));
}

// Parquet from DuckDB: 6000 rows in row groups of 2048 with zstd; 3000 rows in
// one row group with snappy, and with gzip.
const db = await DuckDBInstance.create(':memory:');
const conn = await db.connect();
const select = (n) => `SELECT
  i::BIGINT AS id,
  (8589934592 + 7 * i)::BIGINT AS label,
  (i % 256)::UTINYINT AS u8,
  [i::FLOAT, (i + 0.5)::FLOAT, -(i::FLOAT), (i / 4)::FLOAT]::FLOAT[4] AS x,
  CASE WHEN i = 1 THEN 'NaN'::DOUBLE WHEN i = 2 THEN 'inf'::DOUBLE WHEN i = 3 THEN '-inf'::DOUBLE ELSE i::DOUBLE / 10 END AS f64,
  CASE WHEN i % 5 = 0 THEN NULL ELSE 'name-' || i END AS name,
  ['red', 'green', 'blue'][i % 3 + 1] AS cat,
  CASE WHEN i % 4 = 0 THEN NULL WHEN i % 4 = 1 THEN []::INTEGER[]
       ELSE list_transform(range(i % 4), k -> CASE WHEN k = 0 AND i % 7 = 3 THEN NULL ELSE (i + k)::INTEGER END) END AS toks,
  unhex(printf('%02x%02x', i % 256, (3 * i) % 256)) AS bin,
  make_timestamp((1700000000 + i) * 1000000) AS ts,
  i % 2 = 0 AS flag
FROM range(${n}) t(i) ORDER BY i`;
for (const [name, n, opts] of [
  ['duckdb-zstd.parquet', 6000, 'COMPRESSION zstd, ROW_GROUP_SIZE 2048'],
  ['duckdb-snappy.parquet', 3000, 'COMPRESSION snappy'],
  ['duckdb-gzip.parquet', 3000, 'COMPRESSION gzip'],
]) {
  await conn.run(`COPY (${select(n)}) TO '${join(out, name)}' (FORMAT parquet, ${opts})`);
}
// Columns the kit has no container for (a struct, a decimal), beside one it
// reads, for the errors that name them.
await conn.run(`COPY (SELECT i::BIGINT AS id, (i / 3)::DECIMAL(10, 2) AS price, {'a': i, 'b': 'x'} AS s
  FROM range(10) t(i)) TO '${join(out, 'duckdb-struct.parquet')}' (FORMAT parquet)`);
conn.closeSync?.();

// The edge table: what the table above has not, in 200 rows, so that every
// reader meets nulls where numbers are read (scalars, fixed-size lists), a
// column with exactly one null, the four kinds of lists (required or not, of
// values required or not), a dictionary with nulls, unsigned integers past the
// signed range and dates before and after 1970. Row i (interop.Edge in Go):
//
//	id    int64                      i
//	i32n  int32, nullable            null when i mod 3 = 1, else 7i - 500
//	one   float64, nullable          null at i = 57 only, else i + 0.5
//	u16   uint16                     65535 - 300i
//	u32   uint32                     4294967295 - 1000003i
//	u64   uint64                     2^63 + 12345i
//	day   date32                     i - 100 days after 1970-01-01
//	fsl   float32[3], nullable       null when i mod 5 = 2, else [i, -i, i/8]
//	                                 with the second null when i mod 7 = 4
//	fse   int16[2]                   [i, 1000 - 10i], the first null when
//	                                 i mod 6 = 3
//	req   list<int32>, required,     the i mod 4 values i, i+1, ...
//	      of required values
//	reqn  list<int32>, required,     [] when i mod 3 = 0, else [i, 2i] with
//	      of nullable values         the first null when i mod 5 = 1
//	optr  list<int32>, nullable,     null when i mod 3 = 0, else the first
//	      of required values         1 + i mod 2 values of [i, i+100]
//	dcat  dictionary<int8, utf8>,    null when i mod 6 = 5, else alpha, "",
//	      nullable                   gamma for i mod 3 = 0, 1, 2
//	own   list<int32>, nullable      null when i mod 4 = 2, else [i, -i]
//	owns  utf8, nullable             null when i mod 4 = 2, else "s<i>"
//
// apache-arrow writes it in record batches of 64 (edge.arrow); parquet-wasm
// in row groups of 64 (edge-rs.parquet), keeping the required lists
// required; DuckDB in one row group (edge-duckdb.parquet), whose lists are all
// optional (DuckDB writes every column OPTIONAL) and whose fixed-size lists
// are lists. arrowgo/main.go writes it too, with null lists and strings that
// own values (edge-go.arrows).
const E = 200;
const edgeCols = [
  ['id', new A.Int64(), false, (i) => BigInt(i)],
  ['i32n', new A.Int32(), true, (i) => (i % 3 === 1 ? null : 7 * i - 500)],
  ['one', new A.Float64(), true, (i) => (i === 57 ? null : i + 0.5)],
  ['u16', new A.Uint16(), false, (i) => 65535 - 300 * i],
  ['u32', new A.Uint32(), false, (i) => 4294967295 - 1000003 * i],
  ['u64', new A.Uint64(), false, (i) => 2n ** 63n + 12345n * BigInt(i)],
  ['day', new A.DateDay(), false, (i) => new Date((i - 100) * 86400000)],
  ['fsl', new A.FixedSizeList(3, new A.Field('item', new A.Float32(), true)), true,
    (i) => (i % 5 === 2 ? null : [i, i % 7 === 4 ? null : -i, i / 8])],
  ['fse', new A.FixedSizeList(2, new A.Field('item', new A.Int16(), true)), false,
    (i) => [i % 6 === 3 ? null : i, 1000 - 10 * i]],
  ['req', new A.List(new A.Field('item', new A.Int32(), false)), false,
    (i) => Array.from({ length: i % 4 }, (_, k) => i + k)],
  ['reqn', new A.List(new A.Field('item', new A.Int32(), true)), false,
    (i) => (i % 3 === 0 ? [] : [i % 5 === 1 ? null : i, 2 * i])],
  ['optr', new A.List(new A.Field('item', new A.Int32(), false)), true,
    (i) => (i % 3 === 0 ? null : [i, i + 100].slice(0, 1 + (i % 2)))],
  ['dcat', new A.Dictionary(new A.Utf8(), new A.Int8(), 1, false), true,
    (i) => (i % 6 === 5 ? null : ['alpha', '', 'gamma'][i % 3])],
  ['own', new A.List(new A.Field('item', new A.Int32(), true)), true, (i) => (i % 4 === 2 ? null : [i, -i])],
  ['owns', new A.Utf8(), true, (i) => (i % 4 === 2 ? null : `s${i}`)],
];
const edgeSchema = new A.Schema(edgeCols.map(([name, type, nullable]) => new A.Field(name, type, nullable)));
function edgeBatch(lo, hi) {
  const children = edgeCols.map(([, type, , f]) => A.vectorFromArray(col(lo, hi, f), type).data[0]);
  return new A.RecordBatch(edgeSchema, A.makeData({ type: new A.Struct(edgeSchema.fields), length: hi - lo, nullCount: 0, children }));
}
const edgeWhole = new A.Table([edgeBatch(0, E)]); // one dictionary for every batch
const edgeBatches = [];
for (let lo = 0; lo < E; lo += 64) edgeBatches.push(...edgeWhole.slice(lo, Math.min(E, lo + 64)).batches);
const edge = new A.Table(edgeBatches);
writeFileSync(join(out, 'edge.arrow'), A.tableToIPC(edge, 'file'));
{
  const props = new PQ.WriterPropertiesBuilder().setCompression(PQ.Compression.SNAPPY).setMaxRowGroupSize(64).build();
  writeFileSync(join(out, 'edge-rs.parquet'), PQ.writeParquet(PQ.Table.fromIPCStream(A.tableToIPC(edge, 'stream')), props));
}
{
  const db = await DuckDBInstance.create(':memory:');
  const conn = await db.connect();
  await conn.run(`COPY (SELECT
    i::BIGINT AS id,
    CASE WHEN i % 3 = 1 THEN NULL ELSE (7 * i - 500)::INTEGER END AS i32n,
    CASE WHEN i = 57 THEN NULL ELSE i + 0.5 END::DOUBLE AS one,
    (65535 - 300 * i)::USMALLINT AS u16,
    (4294967295 - 1000003 * i)::UINTEGER AS u32,
    (9223372036854775808 + 12345 * i)::UBIGINT AS u64,
    (DATE '1970-01-01' + (i::INTEGER - 100)) AS day,
    (CASE WHEN i % 5 = 2 THEN NULL ELSE [i::FLOAT, CASE WHEN i % 7 = 4 THEN NULL ELSE -(i::FLOAT) END, (i / 8)::FLOAT] END)::FLOAT[3] AS fsl,
    [CASE WHEN i % 6 = 3 THEN NULL ELSE i::SMALLINT END, (1000 - 10 * i)::SMALLINT]::SMALLINT[2] AS fse,
    list_transform(range(i % 4), k -> (i + k)::INTEGER) AS req,
    CASE WHEN i % 3 = 0 THEN []::INTEGER[] ELSE [CASE WHEN i % 5 = 1 THEN NULL ELSE i::INTEGER END, (2 * i)::INTEGER] END AS reqn,
    CASE WHEN i % 3 = 0 THEN NULL ELSE [i::INTEGER, (i + 100)::INTEGER][1:1 + i % 2] END AS optr,
    CASE WHEN i % 6 = 5 THEN NULL ELSE ['alpha', '', 'gamma'][i % 3 + 1] END AS dcat,
    CASE WHEN i % 4 = 2 THEN NULL ELSE [i::INTEGER, (-i)::INTEGER] END AS own,
    CASE WHEN i % 4 = 2 THEN NULL ELSE 's' || i END AS owns
  FROM range(${E}) t(i) ORDER BY i) TO '${join(out, 'edge-duckdb.parquet')}' (FORMAT parquet, COMPRESSION zstd)`);
  conn.closeSync?.();
}
