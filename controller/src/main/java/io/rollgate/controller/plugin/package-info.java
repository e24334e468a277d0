/**
 * Plugins (docs/plugins.md): the {@code argo-rollouts-config} registry, fetching and checksums,
 * plugin processes and their supervision, endpoint and in-process plugins, and the calls the
 * reconcilers make to them.
 */
package io.rollgate.controller.plugin;
