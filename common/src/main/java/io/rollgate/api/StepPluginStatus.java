package io.rollgate.api;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.fabric8.crd.generator.annotation.SchemaFrom;
import java.util.Objects;

/**
 * State of one step plugin operation ({@code status.canary.stepPluginStatuses[]}); unique by index,
 * name and operation.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public class StepPluginStatus extends ModelObject {

  /** Step index. */
  @JsonProperty("index")
  private Integer index;

  /** Plugin name. */
  @JsonProperty("name")
  private String name;

  /** {@code Run}, {@code Terminate} or {@code Abort}. */
  @JsonProperty("operation")
  private String operation;

  /** {@code Running}, {@code Successful}, {@code Failed} or {@code Error}. */
  @JsonProperty("phase")
  private String phase;

  /** Message returned by the plugin. */
  @JsonProperty("message")
  private String message;

  /** RFC 3339 time of the first call of the operation. */
  @JsonProperty("startedAt")
  private String startedAt;

  /** RFC 3339 time of the last call. */
  @JsonProperty("updatedAt")
  private String updatedAt;

  /** RFC 3339 time the operation completed. */
  @JsonProperty("finishedAt")
  private String finishedAt;

  /** Go duration to wait after {@code updatedAt} before the next call. */
  @JsonProperty("backoff")
  private String backoff;

  /** Number of calls of the operation. */
  @JsonProperty("executions")
  private Integer executions;

  /** The plugin is disabled in the controller configuration; the step is skipped. */
  @JsonProperty("disabled")
  private Boolean disabled;

  /** Opaque plugin state, passed back on the next call (schemaless). */
  @JsonProperty("status")
  @SchemaFrom(type = ObjectNode.class)
  private JsonNode status;

  public Integer getIndex() {
    return index;
  }

  public void setIndex(Integer index) {
    this.index = index;
  }

  public String getName() {
    return name;
  }

  public void setName(String name) {
    this.name = name;
  }

  public String getOperation() {
    return operation;
  }

  public void setOperation(String operation) {
    this.operation = operation;
  }

  public String getPhase() {
    return phase;
  }

  public void setPhase(String phase) {
    this.phase = phase;
  }

  public String getMessage() {
    return message;
  }

  public void setMessage(String message) {
    this.message = message;
  }

  public String getStartedAt() {
    return startedAt;
  }

  public void setStartedAt(String startedAt) {
    this.startedAt = startedAt;
  }

  public String getUpdatedAt() {
    return updatedAt;
  }

  public void setUpdatedAt(String updatedAt) {
    this.updatedAt = updatedAt;
  }

  public String getFinishedAt() {
    return finishedAt;
  }

  public void setFinishedAt(String finishedAt) {
    this.finishedAt = finishedAt;
  }

  public String getBackoff() {
    return backoff;
  }

  public void setBackoff(String backoff) {
    this.backoff = backoff;
  }

  public Integer getExecutions() {
    return executions;
  }

  public void setExecutions(Integer executions) {
    this.executions = executions;
  }

  public Boolean getDisabled() {
    return disabled;
  }

  public void setDisabled(Boolean disabled) {
    this.disabled = disabled;
  }

  public JsonNode getStatus() {
    return status;
  }

  public void setStatus(JsonNode status) {
    this.status = status;
  }

  @Override
  public boolean equals(Object o) {
    if (this == o) {
      return true;
    }
    if (o == null || getClass() != o.getClass()) {
      return false;
    }
    StepPluginStatus that = (StepPluginStatus) o;
    return Objects.equals(index, that.index)
        && Objects.equals(name, that.name)
        && Objects.equals(operation, that.operation)
        && Objects.equals(phase, that.phase)
        && Objects.equals(message, that.message)
        && Objects.equals(startedAt, that.startedAt)
        && Objects.equals(updatedAt, that.updatedAt)
        && Objects.equals(finishedAt, that.finishedAt)
        && Objects.equals(backoff, that.backoff)
        && Objects.equals(executions, that.executions)
        && Objects.equals(disabled, that.disabled)
        && Objects.equals(status, that.status)
        && additionalPropertiesEqual(that);
  }

  @Override
  public int hashCode() {
    return Objects.hash(
        index,
        name,
        operation,
        phase,
        message,
        startedAt,
        updatedAt,
        finishedAt,
        backoff,
        executions,
        disabled,
        status,
        additionalPropertiesHashCode());
  }
}
