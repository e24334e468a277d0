package io.rollgate.api;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import io.fabric8.generator.annotation.Required;
import java.util.Objects;

/** Ping-pong Services of a canary ({@code spec.strategy.canary.pingPong}). */
@JsonInclude(JsonInclude.Include.NON_NULL)
public class PingPongSpec extends ModelObject {

  /** Name of the ping Service. */
  @JsonProperty("pingService")
  @Required
  private String pingService;

  /** Name of the pong Service. */
  @JsonProperty("pongService")
  @Required
  private String pongService;

  public String getPingService() {
    return pingService;
  }

  public void setPingService(String pingService) {
    this.pingService = pingService;
  }

  public String getPongService() {
    return pongService;
  }

  public void setPongService(String pongService) {
    this.pongService = pongService;
  }

  @Override
  public boolean equals(Object o) {
    if (this == o) {
      return true;
    }
    if (o == null || getClass() != o.getClass()) {
      return false;
    }
    PingPongSpec that = (PingPongSpec) o;
    return Objects.equals(pingService, that.pingService)
        && Objects.equals(pongService, that.pongService)
        && additionalPropertiesEqual(that);
  }

  @Override
  public int hashCode() {
    return Objects.hash(pingService, pongService, additionalPropertiesHashCode());
  }
}
