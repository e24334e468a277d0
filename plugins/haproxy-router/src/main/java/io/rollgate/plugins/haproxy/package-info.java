/**
 * The HAProxy traffic-router plugin: sets the weights of a backend's stable and canary servers
 * through HAProxy's runtime API (docs/compatibility.md §11, docs/plugins.md), configured by {@code
 * trafficRouting.plugins["<org>/haproxy"]}.
 */
package io.rollgate.plugins.haproxy;
