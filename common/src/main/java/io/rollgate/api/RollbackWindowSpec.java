package io.rollgate.api;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import java.util.Objects;

/** Rollback window ({@code spec.rollbackWindow}). */
@JsonInclude(JsonInclude.Include.NON_NULL)
public class RollbackWindowSpec extends ModelObject {

  /** Number of most recent revisions a rollback may return to without steps or analysis. */
  @JsonProperty("revisions")
  private Integer revisions;

  public Integer getRevisions() {
    return revisions;
  }

  public void setRevisions(Integer revisions) {
    this.revisions = revisions;
  }

  @Override
  public boolean equals(Object o) {
    if (this == o) {
      return true;
    }
    if (o == null || getClass() != o.getClass()) {
      return false;
    }
    RollbackWindowSpec that = (RollbackWindowSpec) o;
    return Objects.equals(revisions, that.revisions) && additionalPropertiesEqual(that);
  }

  @Override
  public int hashCode() {
    return Objects.hash(revisions, additionalPropertiesHashCode());
  }
}
