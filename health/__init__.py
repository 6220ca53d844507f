"""The health page for the proxy and monitors: database, channel layer and worker."""
