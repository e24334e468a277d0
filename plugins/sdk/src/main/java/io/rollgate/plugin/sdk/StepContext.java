package io.rollgate.plugin.sdk;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * What a step plugin receives besides the Rollout (Argo Rollouts' {@code RpcStepContext},
 * docs/compatibility.md §10.2).
 *
 * @param pluginName the registered name, {@code <org>/<name>}
 * @param stepIndex the 0-based index of the step in {@code spec.strategy.canary.steps}
 * @param config the step's {@code plugin.config}, or null when absent
 * @param status the plugin status this operation returned last time for this step, or null on the
 *     first call
 */
public record StepContext(String pluginName, int stepIndex, JsonNode config, JsonNode status) {}
