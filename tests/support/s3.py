"""A real S3-compatible HTTP endpoint for the document storage tests: moto's standalone server
(`moto[server]`, ThreadedMotoServer) listening on a free local port — a werkzeug HTTP server that
speaks the S3 REST protocol, reached by boto3 over TCP like any bucket. It is an emulator, not AWS:
it answers the calls the backend makes (PUT, HEAD, GET, errors such as NoSuchBucket) as S3 does,
but it does not verify a PUT's SHA-256 checksum as S3 does."""
from __future__ import annotations

import logging
import uuid

import boto3
from moto.server import ThreadedMotoServer

REGION = "us-east-1"
CREDENTIALS = {"AWS_ACCESS_KEY_ID": "tramite-test", "AWS_SECRET_ACCESS_KEY": "tramite-test-secret",
               "AWS_EC2_METADATA_DISABLED": "true"}


def start_server() -> tuple[ThreadedMotoServer, str]:
    logging.getLogger("werkzeug").setLevel(logging.WARNING)  # not a line per request in the test output
    server = ThreadedMotoServer(ip_address="127.0.0.1", port=0, verbose=False)
    server.start()
    host, port = server.get_host_and_port()
    return server, f"http://{host}:{port}"


def client(endpoint: str):
    return boto3.client("s3", endpoint_url=endpoint, region_name=REGION,
                        aws_access_key_id=CREDENTIALS["AWS_ACCESS_KEY_ID"],
                        aws_secret_access_key=CREDENTIALS["AWS_SECRET_ACCESS_KEY"])


def new_bucket(endpoint: str) -> str:
    name = f"tramite-{uuid.uuid4().hex[:12]}"
    client(endpoint).create_bucket(Bucket=name)
    return name


def objects(endpoint: str, bucket: str) -> dict[str, bytes]:
    """{key: bytes} of every object in the bucket."""
    s3 = client(endpoint)
    out = {}
    for page in s3.get_paginator("list_objects_v2").paginate(Bucket=bucket):
        for item in page.get("Contents", []):
            out[item["Key"]] = s3.get_object(Bucket=bucket, Key=item["Key"])["Body"].read()
    return out


def use(monkeypatch, endpoint: str, bucket: str, prefix: str | None = None) -> None:
    """Point the document storage at `bucket` on `endpoint` (the environment a deployment sets)."""
    for name, value in CREDENTIALS.items():
        monkeypatch.setenv(name, value)
    monkeypatch.setenv("TRAMITE_DOCUMENT_STORAGE", "s3")
    monkeypatch.setenv("TRAMITE_S3_BUCKET", bucket)
    monkeypatch.setenv("TRAMITE_S3_ENDPOINT_URL", endpoint)
    monkeypatch.setenv("TRAMITE_S3_REGION", REGION)
    if prefix is not None:
        monkeypatch.setenv("TRAMITE_S3_PREFIX", prefix)
