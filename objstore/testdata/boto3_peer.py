"""The boto3 side of objstore's interop test (TestBoto3Interop).

Run by the test with Debian's /usr/bin/python3 and python3-boto3, with the
S3 server in AWS_ENDPOINT_URL, AWS_REGION, AWS_ACCESS_KEY_ID and
AWS_SECRET_ACCESS_KEY. argv[1] is a JSON list of requests; the script prints
one JSON line answering each:

  {"op": "put", "bucket": B, "key": K, "file": PATH}   upload_file (multipart above 8 MiB)
  {"op": "get", "bucket": B, "key": K, "range": [a, b]} get_object, bytes a..b (or whole): {"sha256": HEX, "size": N}
  {"op": "list", "bucket": B, "prefix": P}              list_objects_v2, every page: {"keys": [...], "sizes": [...]}
"""
import hashlib
import json
import os
import sys

import boto3
from botocore.config import Config


def main():
    s3 = boto3.client(
        "s3",
        endpoint_url=os.environ["AWS_ENDPOINT_URL"],
        # Debian's boto3 (1.26) predates the checksums of 2025 that
        # S3-compatible servers refuse; nothing to turn off.
        config=Config(s3={"addressing_style": "path"}, signature_version="s3v4"),
    )
    for req in json.loads(sys.argv[1]):
        op = req["op"]
        if op == "put":
            s3.upload_file(req["file"], req["bucket"], req["key"])
            print(json.dumps({"ok": True}))
        elif op == "get":
            kw = {}
            if "range" in req:
                kw["Range"] = "bytes=%d-%d" % tuple(req["range"])
            body = s3.get_object(Bucket=req["bucket"], Key=req["key"], **kw)["Body"].read()
            print(json.dumps({"sha256": hashlib.sha256(body).hexdigest(), "size": len(body)}))
        elif op == "list":
            keys, sizes = [], []
            for page in s3.get_paginator("list_objects_v2").paginate(Bucket=req["bucket"], Prefix=req["prefix"]):
                for o in page.get("Contents", []):
                    keys.append(o["Key"])
                    sizes.append(o["Size"])
            print(json.dumps({"keys": keys, "sizes": sizes}))
        else:
            raise SystemExit("unknown op %r" % op)
        sys.stdout.flush()


if __name__ == "__main__":
    main()
