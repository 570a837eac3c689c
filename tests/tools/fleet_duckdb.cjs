#!/usr/bin/env node
// fleet_duckdb.cjs NODE_DIR 'GLOB' SQL: load trace_analyze's JSON Lines files
// (--format ndjson), or CSV files when GLOB ends in .csv, into DuckDB
// (@duckdb/node-api, from NODE_DIR/node_modules) unchanged, as one table
// "rows", run SQL on it and print each result row as its values joined by
// tabs. No code of trace_analyze's is used.
const { createRequire } = require('module');
const [nodeDir, glob, sql] = process.argv.slice(2);
const { DuckDBInstance } = createRequire(nodeDir + '/package.json')('@duckdb/node-api');

(async () => {
	const db = await DuckDBInstance.create(':memory:');
	const con = await db.connect();
	const read = glob.endsWith('.csv')
		? `read_csv('${glob}', union_by_name = true)`
		: `read_json('${glob}', format = 'newline_delimited', union_by_name = true)`;
	await con.run(`create table rows as select * from ${read}`);
	const result = await con.runAndReadAll(sql);
	for (const row of result.getRowsJson())
		console.log(row.map(v => v === null ? '' : String(v)).join('\t'));
})().catch(e => { console.error(e.message); process.exit(1); });
