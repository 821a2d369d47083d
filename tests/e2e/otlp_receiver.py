"""An OTLP/HTTP logs receiver for the audit export tests, built on the official protobuf
definitions (the `opentelemetry-proto` package from PyPI).

Usage: otlp_receiver.py OUT. Prints the port it listens on (127.0.0.1), then writes one JSON
line to OUT per log record received: the resource's and the record's attributes, the body,
the time, the severity and the request's headers.
"""

import json
import sys
from http.server import BaseHTTPRequestHandler, HTTPServer

from google.protobuf.json_format import MessageToDict
from opentelemetry.proto.collector.logs.v1.logs_service_pb2 import (
    ExportLogsServiceRequest,
    ExportLogsServiceResponse,
)


def value(any_value):
    kind = any_value.WhichOneof("value")
    return getattr(any_value, kind) if kind else None


def attributes(items):
    return {item.key: value(item.value) for item in items}


class Receiver(BaseHTTPRequestHandler):
    def do_POST(self):
        body = self.rfile.read(int(self.headers["Content-Length"]))
        if self.path != "/v1/logs" or self.headers["Content-Type"] != "application/x-protobuf":
            self.send_response(400)
            self.end_headers()
            return
        request = ExportLogsServiceRequest()
        request.ParseFromString(body)
        with open(sys.argv[1], "a", encoding="utf-8") as out:
            for resource_logs in request.resource_logs:
                resource = attributes(resource_logs.resource.attributes)
                for scope_logs in resource_logs.scope_logs:
                    for record in scope_logs.log_records:
                        out.write(json.dumps({
                            "resource": resource,
                            "scope": scope_logs.scope.name,
                            "attributes": attributes(record.attributes),
                            "body": value(record.body),
                            "time_unix_nano": record.time_unix_nano,
                            "severity_number": record.severity_number,
                            "severity_text": record.severity_text,
                            "event_name": MessageToDict(record).get("eventName"),
                            "headers": {k.lower(): v for k, v in self.headers.items()},
                        }) + "\n")
        answer = ExportLogsServiceResponse().SerializeToString()
        self.send_response(200)
        self.send_header("Content-Type", "application/x-protobuf")
        self.send_header("Content-Length", str(len(answer)))
        self.end_headers()
        self.wfile.write(answer)

    def log_message(self, *args):
        pass


server = HTTPServer(("127.0.0.1", 0), Receiver)
print(server.server_address[1], flush=True)
server.serve_forever()
