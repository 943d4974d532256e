package dev.sluice.authz;

import java.util.EnumSet;
import java.util.Set;
import org.apache.iceberg.MetadataUpdate;
import org.apache.iceberg.UpdateRequirement;
import org.apache.iceberg.rest.requests.UpdateTableRequest;

/**
 * What a table commit needs: changing snapshots, refs or statistics is writing data
 * (TABLE_WRITE_DATA); anything else is writing metadata (TABLE_WRITE_PROPERTIES). A commit that
 * creates the table (stage-create, then commit) needs TABLE_CREATE on the namespace, checked by the
 * caller, plus TABLE_WRITE_DATA if it also writes data.
 */
public final class CommitPrivileges {
  private CommitPrivileges() {}

  public static boolean createsTable(UpdateTableRequest request) {
    return request.requirements().stream()
        .anyMatch(r -> r instanceof UpdateRequirement.AssertTableDoesNotExist);
  }

  public static boolean writesData(UpdateTableRequest request) {
    return request.updates().stream().anyMatch(CommitPrivileges::isDataUpdate);
  }

  /**
   * The privileges needed on the table itself (for a create, on top of TABLE_CREATE on the
   * namespace).
   */
  public static Set<Privilege> onTable(UpdateTableRequest request) {
    EnumSet<Privilege> needed = EnumSet.noneOf(Privilege.class);
    boolean create = createsTable(request);
    for (MetadataUpdate update : request.updates()) {
      if (isDataUpdate(update)) {
        needed.add(Privilege.TABLE_WRITE_DATA);
      } else if (!create) {
        needed.add(Privilege.TABLE_WRITE_PROPERTIES);
      }
    }
    if (needed.isEmpty() && !create) {
      needed.add(Privilege.TABLE_WRITE_PROPERTIES);
    }
    return needed;
  }

  private static boolean isDataUpdate(MetadataUpdate update) {
    return update instanceof MetadataUpdate.AddSnapshot
        || update instanceof MetadataUpdate.RemoveSnapshots
        || update instanceof MetadataUpdate.SetSnapshotRef
        || update instanceof MetadataUpdate.RemoveSnapshotRef
        || update instanceof MetadataUpdate.SetStatistics
        || update instanceof MetadataUpdate.RemoveStatistics
        || update instanceof MetadataUpdate.SetPartitionStatistics
        || update instanceof MetadataUpdate.RemovePartitionStatistics;
  }
}
