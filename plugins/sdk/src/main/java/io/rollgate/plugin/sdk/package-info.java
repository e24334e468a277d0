/**
 * Java SDK for Rollgate plugins (protocol v1, docs/plugins.md): the plugin interfaces, their
 * request and result types, and the HTTP server that serves an implementation as an executable
 * plugin.
 */
package io.rollgate.plugin.sdk;
