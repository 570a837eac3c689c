with s as (select host, key, time, bytes from rows where "table" = 'sites'),
t as (select host, min(time) as t0, max(time) as t1 from rows group by host),
k as (select distinct host, key from s),
g as (select k.host, k.key,
	coalesce((select sum(bytes) from s where s.host = k.host and s.key = k.key and s.time = t.t1), 0) -
	coalesce((select sum(bytes) from s where s.host = k.host and s.key = k.key and s.time = t.t0), 0) as grew
	from k join t on k.host = t.host)
select host, key, grew from g where grew <> 0 order by grew desc, host, key
