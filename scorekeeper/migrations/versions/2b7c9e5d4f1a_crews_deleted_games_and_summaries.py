"""crews, deleted games and the summaries statistics read

Revision ID: 2b7c9e5d4f1a
Revises: 9d2e4b1c7a3f
Create Date: 2026-11-23 18:45:00

"""
from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision = '2b7c9e5d4f1a'
down_revision = '9d2e4b1c7a3f'
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table('game', schema=None) as batch_op:
        batch_op.add_column(sa.Column('crew', sa.String(length=32), nullable=True))
        batch_op.add_column(sa.Column('deleted_at', sa.DateTime(), nullable=True))
        batch_op.add_column(sa.Column('summary', sa.JSON(), nullable=True))
    # Every game stored before crews were known is a crew of its own.
    op.execute("UPDATE game SET crew = public_id")
    with op.batch_alter_table('game', schema=None) as batch_op:
        batch_op.alter_column('crew', existing_type=sa.String(length=32), nullable=False)
        batch_op.create_index(batch_op.f('ix_game_crew'), ['crew'], unique=False)
        batch_op.create_index(batch_op.f('ix_game_deleted_at'), ['deleted_at'], unique=False)


def downgrade():
    with op.batch_alter_table('game', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_game_deleted_at'))
        batch_op.drop_index(batch_op.f('ix_game_crew'))
        batch_op.drop_column('summary')
        batch_op.drop_column('deleted_at')
        batch_op.drop_column('crew')
