"""Parse a folder of JSONL request shards with Dask, one partition per shard.

    python examples/python/dask_corpus.py SHARDS_DIR OUT_DIR [--scheduler ADDRESS]

Each shard (``*.jsonl``) holds ``plurnk-parser --jsonl`` requests, one
``{"id", "entry", "input", "options"}`` per line. OUT_DIR receives one ``part-N.jsonl`` per shard,
in the shard's line order, each line ``{"id", "result"}`` or ``{"id", "throws"}`` as the CLI
answers, and the run prints how many requests it answered.

Without ``--scheduler`` Dask's local scheduler runs the bag (worker processes on this machine).
With ``--scheduler tcp://HOST:8786`` the partitions run on that Dask cluster: start it with
``dask scheduler`` on one host and ``dask worker tcp://HOST:8786`` on each of the others, every
one with ``pip install plurnk-parser dask distributed``; SHARDS_DIR and OUT_DIR must then be paths
(or fsspec URLs, such as ``s3://bucket/shards``) that every worker can read and write.
"""

import argparse
import json
import sys

import dask.bag as db

import plurnk_parser


def respond(line):
    """One request line to one response line, as ``plurnk-parser --jsonl`` answers it."""
    try:
        req = json.loads(line)
    except ValueError as e:
        return json.dumps({"id": None, "throws": f"invalid request: {e}"}, ensure_ascii=False)
    options = req.get("options") or {}
    try:
        result = plurnk_parser.call(req.get("entry", "parse"), req["input"], options.get("executors"))
    except (ValueError, KeyError, TypeError) as e:
        return json.dumps({"id": req.get("id"), "throws": str(e)}, ensure_ascii=False)
    return json.dumps({"id": req.get("id"), "result": result}, ensure_ascii=False)


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("shards", help="folder of *.jsonl request shards")
    ap.add_argument("out", help="folder for the part-N.jsonl responses")
    ap.add_argument("--scheduler", help="a Dask scheduler address, e.g. tcp://host:8786 (default: local)")
    args = ap.parse_args(argv)

    client = None
    if args.scheduler:
        from dask.distributed import Client

        client = Client(args.scheduler)
    # blocksize=None: one partition per shard, so each output part holds one shard, in order.
    lines = db.read_text(f"{args.shards.rstrip('/')}/*.jsonl", blocksize=None).map(str.rstrip).filter(bool)
    responses = lines.map(respond)
    responses.to_textfiles(f"{args.out.rstrip('/')}/part-*.jsonl", encoding="utf-8")
    answered = db.read_text(f"{args.out.rstrip('/')}/part-*.jsonl", blocksize=None).count().compute()
    print(f"answered {answered} requests", file=sys.stderr)
    if client is not None:
        client.close()
    return answered


if __name__ == "__main__":
    main()
