"""Debian's nginx run from ``deploy/nginx.conf``, in front of a stack's daphne processes.

The file is used as shipped; only the lines an operator replaces anyway are
pointed at the test's own ports, certificate and folders (each replacement
must find its line, so the file cannot drift away from what is tested).
The certificate is a self-signed one made here for 127.0.0.1.
"""

from __future__ import annotations

import datetime
import ipaddress
import os
import socket
import ssl
from pathlib import Path

from stacks.servers import ROOT, ServerProcess, free_port

NGINX = "/usr/sbin/nginx"
CONFIG = ROOT / "deploy" / "nginx.conf"


def nginx_problem() -> str | None:
    """Why nginx cannot run here, or None when it can."""
    if not os.access(NGINX, os.X_OK):
        return f"nginx is needed: {NGINX} is missing (scripts/nginx.sh installs it)"
    return None


def self_signed_certificate(folder: Path) -> tuple[Path, Path]:
    """A certificate and key for 127.0.0.1, valid for a day; returns their paths."""
    from cryptography import x509
    from cryptography.hazmat.primitives import hashes, serialization
    from cryptography.hazmat.primitives.asymmetric import ec
    from cryptography.x509.oid import NameOID

    key = ec.generate_private_key(ec.SECP256R1())
    name = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, "127.0.0.1")])
    now = datetime.datetime.now(datetime.UTC)
    certificate = (
        x509.CertificateBuilder()
        .subject_name(name)
        .issuer_name(name)
        .public_key(key.public_key())
        .serial_number(x509.random_serial_number())
        .not_valid_before(now - datetime.timedelta(minutes=5))
        .not_valid_after(now + datetime.timedelta(days=1))
        .add_extension(
            x509.SubjectAlternativeName([x509.IPAddress(ipaddress.ip_address("127.0.0.1"))]),
            critical=False,
        )
        .add_extension(x509.BasicConstraints(ca=True, path_length=None), critical=True)
        .sign(key, hashes.SHA256())
    )
    cert_path, key_path = folder / "cert.pem", folder / "key.pem"
    cert_path.write_bytes(certificate.public_bytes(serialization.Encoding.PEM))
    key_path.write_bytes(
        key.private_bytes(
            serialization.Encoding.PEM,
            serialization.PrivateFormat.PKCS8,
            serialization.NoEncryption(),
        )
    )
    return cert_path, key_path


class Nginx(ServerProcess):
    """nginx in the foreground with the deployment's configuration, on ports of its own."""

    def __init__(self, folder: Path, upstreams: list[int]) -> None:
        assert len(upstreams) == 2, "deploy/nginx.conf names two daphne processes"
        folder.mkdir(parents=True, exist_ok=True)
        self.folder = folder
        self.http_port = free_port()
        self.https_port = free_port()
        self.cert, self.key = self_signed_certificate(folder)
        config = folder / "nginx.conf"
        config.write_text(self.configuration(upstreams))
        super().__init__(
            "nginx",
            [NGINX, "-c", str(config), "-p", f"{folder}/", "-g", "daemon off;"],
            dict(os.environ),
            folder / "nginx.out",
        )

    def configuration(self, upstreams: list[int]) -> str:
        """deploy/nginx.conf with the operator's lines pointed at this test's."""
        text = CONFIG.read_text()
        # Each daphne process is named in both upstreams: pages and table sockets.
        for named, port in (("8001", upstreams[0]), ("8002", upstreams[1])):
            old = f"server 127.0.0.1:{named} "
            assert text.count(old) == 2, f"deploy/nginx.conf no longer has {old!r} twice"
            text = text.replace(old, f"server 127.0.0.1:{port} ")
        replacements = {
            "listen 80;": f"listen 127.0.0.1:{self.http_port};",
            "listen 443 ssl http2;": f"listen 127.0.0.1:{self.https_port} ssl http2;",
            "/etc/ssl/baloot/fullchain.pem": str(self.cert),
            "/etc/ssl/baloot/privkey.pem": str(self.key),
            "pid /run/nginx-baloot.pid;": f"pid {self.folder}/nginx.pid;",
            "/var/log/nginx/baloot-error.log": str(self.folder / "error.log"),
            "/var/log/nginx/baloot-access.log": str(self.folder / "access.log"),
        }
        for old, new in replacements.items():
            assert text.count(old) == 1, f"deploy/nginx.conf no longer has {old!r} once"
            text = text.replace(old, new)
        if os.geteuid() == 0:
            # As root, nginx's workers would switch to "nobody", who cannot
            # read the test's folder; they stay root instead.
            text = "user root;\n" + text
        return text

    @property
    def url(self) -> str:
        return f"https://127.0.0.1:{self.https_port}"

    @property
    def ws_url(self) -> str:
        return f"wss://127.0.0.1:{self.https_port}"

    @property
    def plain_url(self) -> str:
        return f"http://127.0.0.1:{self.http_port}"

    def ssl_context(self) -> ssl.SSLContext:
        """A client context that trusts this proxy's certificate (and only it)."""
        return ssl.create_default_context(cafile=str(self.cert))

    def answers(self) -> bool:
        try:
            with socket.create_connection(("127.0.0.1", self.https_port), timeout=2):
                return True
        except OSError:
            return False

    def start_and_wait(self) -> None:
        self.start()
        self.wait_ready(self.answers)

    def access_log(self) -> str:
        path = self.folder / "access.log"
        return path.read_text(errors="replace") if path.exists() else ""
