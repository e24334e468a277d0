package io.rollgate.controller.plugin;

import com.fasterxml.jackson.databind.JsonNode;
import io.vertx.core.Future;
import java.time.Duration;

/**
 * One registered plugin as the controller reaches it: an executable it supervises, an endpoint, or
 * an in-process Java class. Every method is called on the plugin host's Vert.x context and returns
 * at once.
 */
interface PluginInstance {

  /**
   * Calls the plugin, starting it first when needed ({@code init} is sent once per process before
   * any other call).
   *
   * @param path the protocol path relative to {@code /v1/}
   * @param body the JSON body
   * @param timeout bound of the call itself ({@code --plugin-call-timeout})
   * @return the answer body; fails with a {@link PluginCallException} naming the plugin and the
   *     reason
   */
  Future<JsonNode> call(String path, JsonNode body, Duration timeout);

  /**
   * Stops the plugin (kills its process) and fails every later call.
   *
   * @return a Future completing when stopped
   */
  Future<Void> close();
}
