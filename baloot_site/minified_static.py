"""Static files storage that minifies the site's own CSS and JavaScript.

The table's first load must stay small on a phone (issue 11: at most 40 KB
gzipped). ``collectstatic`` copies ``static/`` into ``STATIC_ROOT``; before
whitenoise hashes and compresses the copies, the site's own stylesheets and
scripts are minified in place with rcssmin and rjsmin (the minifiers
django-compressor uses). Sources in git stay readable; files from other
apps (admin, django-htmx) and vendored ``*.min.*`` files are left as they
came, since they are already minified or not ours to rewrite.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import rcssmin
import rjsmin
from django.conf import settings
from whitenoise.storage import CompressedManifestStaticFilesStorage

MINIFIERS = {".css": rcssmin.cssmin, ".js": rjsmin.jsmin}


def is_own_source(source_storage: Any) -> bool:
    """Whether a file found by collectstatic comes from one of STATICFILES_DIRS."""
    location = getattr(source_storage, "location", None)
    if location is None:
        return False
    own = {Path(str(entry)).resolve() for entry in settings.STATICFILES_DIRS}
    return Path(location).resolve() in own


def minified(path: str, text: str) -> str | None:
    """``text`` minified for ``path``'s kind, or None when the file is left alone."""
    suffix = Path(path).suffix
    if suffix not in MINIFIERS or ".min." in Path(path).name:
        return None
    return str(MINIFIERS[suffix](text))


class MinifiedCompressedManifestStaticFilesStorage(CompressedManifestStaticFilesStorage):
    """whitenoise's hashed, compressed storage, fed with minified copies of our files."""

    def post_process(
        self, paths: dict[str, Any], dry_run: bool = False, **options: Any
    ) -> Iterator[Any]:
        if not dry_run:
            paths = dict(paths)
            for path, (source_storage, source_path) in paths.items():
                if not is_own_source(source_storage) or minified(path, "") is None:
                    continue
                text = source_storage.open(source_path).read().decode("utf-8")
                Path(self.path(path)).write_text(str(minified(path, text)), encoding="utf-8")
                # Django hashes from the storage each file was found in: point it
                # at the minified copy so the hashed and compressed files are small.
                paths[path] = (self, path)
        yield from super().post_process(paths, dry_run=dry_run, **options)
